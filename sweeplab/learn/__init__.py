"""Learning players of seed 003 (classifiers on CSP features, deep Q-learning on sub-states) and a Gymnasium environment."""
