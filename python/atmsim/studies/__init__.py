"""Reproductions of the published studies (shared/papers): scenario grids plus published data."""
