"""Reproductions of the published studies (docs/references.md): scenario grids plus published data."""
