"""Seed 003's learned players: the CSP features, training data at scale, the XGBoost and network classifiers, deep
Q-learning on sub-states, the players that use them, and the curves and win rates their training records.
May import bench, strategies, analysis, formats and core."""
