"""No-guess dealing: layouts that open at the first click and clear by certain deductions alone, drawn or repaired
(registered with core by sweeplab.analysis).
May import core, sweeplab.analysis.exact and sweeplab.analysis.analyzer."""
