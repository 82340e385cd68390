package collide

// Version is the collide release this client belongs to (semantic
// versioning; the project's one version, in the top-level CMakeLists.txt,
// which the package_versions test holds this constant to).
const Version = "0.9.0"
