package main

// version is set by the release build (GoReleaser's ldflags) and by make
// build: -version prints it.
var version = "dev"
