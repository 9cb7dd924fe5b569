"""Outputs beyond the build's four kinds: exports, print services, PDF/X, Tabletop Simulator, the box, calibration, the preview and the site."""
