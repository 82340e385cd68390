"""The collide release this package belongs to (the project's one version,
set in the top-level CMakeLists.txt; the package_versions test holds this
file to it). pyproject.toml reads it from here."""

__version__ = "0.9.0"
