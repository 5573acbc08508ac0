package live

import (
	"io"
	"log"
)

// discardLog silences net/http's per-connection errors: an aborted
// connection is how the fault layer drops a message.
var discardLog = log.New(io.Discard, "", 0)
