"""Root seeds and the SeedSequence written out in Python: numpy's words, without numpy."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sweeplab.core.seeds import SEED_SPAN, seed_entropy, seed_sequence_state

entropies = st.one_of(st.integers(0, 2**40), st.integers(0, SEED_SPAN - 1), st.integers(SEED_SPAN, 2**300))


@given(entropy=entropies, key=st.lists(st.integers(0, 2**70), max_size=3), words=st.integers(1, 8))
def test_the_words_are_numpy_s(entropy, key, words):
    expected = np.random.SeedSequence(entropy, spawn_key=tuple(key)).generate_state(words, dtype=np.uint32)
    assert seed_sequence_state(entropy, tuple(key), words) == [int(w) for w in expected]


@given(root=st.integers(-(2**300), 2**300))
def test_every_root_seed_deals_as_numpy_would(root):
    entropy = seed_entropy(root)
    expected = np.random.SeedSequence(entropy, spawn_key=(7,)).generate_state(4, dtype=np.uint32)
    assert seed_sequence_state(entropy, (7,), 4) == [int(w) for w in expected]
