package videohost

// The shape of a source upload (its chunk size and how many chunks go out together) when the
// configuration leaves one or both to the client.
//
// What bounds an upload is, in turn: one TCP connection's rate, held to its window over the
// round trip on any path tens of milliseconds long, so that N connections carry about N times
// as much until the link is full; the service's uploads budget of a window (40 a minute in the
// sandbox, 100 in production), which caps the bytes a minute at the budget times the chunk
// size; and the last wave of chunks, in which the connections that have no chunk left idle.
// The client cannot measure the link before it sends, so it takes the most connections that
// the file fills with chunks worth a connection (autoMinChunk), up to MaxUploadChunksInFlight
// and never more than a window's budget: on a path where one connection carries the whole link
// (loopback, a data centre next to the service) the extra connections only share it, and the
// bodies are streamed, so that each costs a few buffers and not its chunk. The chunks are then
// cut in whole waves of equal chunks, so that every connection ends with the others. When the
// file needs more chunks than a window's budget even at the largest chunk, the budget binds
// whatever the connections do, and the chunks are the largest the service takes.

// autoMinChunk is the smallest chunk the client cuts by its own choice: at 100 Mbit/s a chunk
// of 32 MiB lasts about 2.7 s, long enough for the round trip of its request and TCP's slow
// start to cost little, and a source of 1 GiB needs 16 requests of the budget, not 21.
const autoMinChunk = 32 << 20

// assumedUploadsLimit is the uploads budget of a window taken while the service has not yet
// announced it: the smallest it announces (the sandbox's 40 a minute), so that the choice never
// sends more chunks together than any window of the service takes.
const assumedUploadsLimit = 40

// uploadShape is how one source is cut and sent.
type uploadShape struct {
	chunkSize int64
	inFlight  int
}

// chooseUploadShape fills what the configuration leaves to the client (zero) of chunkSize and
// inFlight for a source of size bytes, under an uploads budget of limit requests a window (0
// while unknown); a value the configuration sets is kept as it is.
func chooseUploadShape(size, chunkSize int64, inFlight, limit int) uploadShape {
	if limit <= 0 {
		limit = assumedUploadsLimit
	}
	most := inFlight
	if most == 0 {
		most = min(MaxUploadChunksInFlight, limit)
	}
	if chunkSize == 0 {
		chunkSize = autoChunkSize(size, most, limit)
	}
	chunks := int(ceilDiv(size, chunkSize))
	if inFlight == 0 {
		// As many waves as the chunks need at the most in flight, then as few connections as
		// carry them in that many waves: 21 chunks at 16 are 2 waves of 11, not 16 and 5.
		waves := ceilDiv(int64(chunks), int64(most))
		inFlight = max(1, int(ceilDiv(int64(chunks), waves)))
	}
	return uploadShape{chunkSize: chunkSize, inFlight: inFlight}
}

// autoChunkSize is the chunk size for a source of size bytes sent most chunks at a time under a
// budget of limit requests a window: one wave of chunks of at least autoMinChunk while the file
// fills one, else whole waves of equal chunks of at most MaxUploadChunkSize; the largest chunks
// when the file needs more than a window's budget of them.
func autoChunkSize(size int64, most, limit int) int64 {
	fewest := ceilDiv(size, MaxUploadChunkSize)
	var chunks int64
	switch {
	case fewest >= int64(limit):
		chunks = fewest
	case fewest <= int64(most):
		chunks = max(1, min(int64(most), ceilDiv(size, autoMinChunk)))
	default:
		waves := ceilDiv(fewest, int64(most))
		chunks = waves * ceilDiv(fewest, waves)
	}
	// Whole MiB, so that the grid is easy to read in the service's status and in the logs;
	// rounding up never makes more chunks.
	n := ceilDiv(ceilDiv(size, chunks), 1<<20) << 20
	return min(max(n, MinUploadChunkSize), MaxUploadChunkSize)
}

// ceilDiv is a/b rounded up, for positive b.
func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
