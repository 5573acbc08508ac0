// Package fileio reads the files a user names (scenario files, plans,
// shard files) through a bounded reader that refuses anything but a
// regular file, and writes outputs atomically: all or nothing, readable
// by others (0644), and only ever over a regular file or at a new path.
package fileio
