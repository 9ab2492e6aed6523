"""Charts of the play, drawn on the server as SVG: a game's score by hand, standings over rounds,
a league's positions by night, a player's rating over time.

:mod:`.svg` is pure Python (plain values in, an ``<svg>`` string out, no Django): the pages include
it through ``templates/charts/_chart.html`` (the SVG and its text alternative, a table of the
values), and the printed score sheet converts the same SVG to a ReportLab drawing. Every chart is
readable in black and white (each series its own dash pattern and marker shape), coloured and
sized by classes of the app's stylesheet (``.chart-*``, colours from ``--chart-N`` custom
properties a projector theme can set) and presentation attributes: the CSP allows no inline style.
"""
