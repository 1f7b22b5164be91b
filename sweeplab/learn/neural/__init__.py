"""The ``neural`` player: a fully convolutional network reading the whole board (run in NumPy), its training data
(positions labelled with the exact engine's probabilities) and its training with PyTorch.
May import sweeplab.learn.seed003 (features, data, shards), bench, strategies, analysis and core."""
