"""The reproductions of the seed papers and the studies of our own: their experiments' plans, claims and report pages."""
