// Package fileio reads the files a user names (scenario files, plans,
// shard files) through a bounded reader that refuses devices, and writes
// outputs atomically: all or nothing, readable by others (0644).
package fileio
