"""The GFR rate-guarantee study (Goyal, Jain, Fahmy, Vandalore): `data` Tables 1-5,
`scenarios` the builders, `study` the STUDY object (its figure is drawn there)."""
