"""What the score-sheet benches (print_speed.py, print_worker.py) hold their figures against: the
issue's targets, and the hand-written PDF engine that ReportLab and pikepdf replaced."""

TARGETS = {100: 3.0, 1000: 30.0}  # seconds (issue 25)
# Measured with print_speed.py as it was at 90f5bb6, on this machine kind (2 cores, load 0.5 at the
# start): its own TrueType subsetter and PDF writer, its chunks in a pool of 2 worker processes
# with WeasyPrint loaded. Memory: the process asking, and each of the two workers.
HAND_WRITTEN = {
    100: "1.04–1.48 s (CPU 1.02–1.06 s, in 2 processes), peak memory 86 MB here + 82–83 MB in each of 2 workers",
    1000: "7.61–7.66 s (CPU 7.20–7.48 s, in 2 processes), peak memory 148 MB here + 88 MB in each of 2 workers",
}
HAND_WRITTEN_WHEN = "hand-written engine at 90f5bb6, measured 2026-11-27"
