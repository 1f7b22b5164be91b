"""``python -m sweeplab.studies.pages``: write docs/results.md and its pages from the data under results/."""

from sweeplab.studies.pages.build import main

raise SystemExit(main())
