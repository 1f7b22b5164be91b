"""Super-cells and components (sweeplab.analysis.exact.components)."""

from sweeplab.analysis.exact.components import build_components
from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.formats.position import parse_position


def test_components_and_supercells():
    obs = parse_position("5x3x3\nHHHHH\nH1H1H\nHHHHH\n")
    comps = build_components(constraints_from(obs).constraints)
    assert len(comps) == 1
    assert sorted(len(sc) for sc in comps[0].supercells) == [3, 5, 5]
