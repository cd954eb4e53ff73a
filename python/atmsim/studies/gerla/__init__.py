"""The credit/rate study (Gerla, Pazos, Signore): `data` what the paper states, `scenarios` the
ATM LAN of figure 1, `study` the STUDY object, `figures` its figures."""
