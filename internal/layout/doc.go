// Package layout holds no code: its tests check the shape of the whole
// module — which package may import which (every import points down the
// layers of layers.go), and that one place outside the engine and the
// explorer builds and runs a world.
package layout
