"""The GFR study (Bonaventure): `data` the numbers its text states, `scenarios` the network of
figure 2, `setups` what each figure varies, `study` the STUDY object, `figures` its figures."""
