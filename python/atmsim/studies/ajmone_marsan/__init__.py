"""The CLASS study (Ajmone Marsan, Bianco, Lo Cigno, Munafò): `data` what the paper states,
`italian_network` the reconstructed ten-node network, `scenarios` the two-node and Italian
networks, `study` the STUDY object, `figures` its figures."""
