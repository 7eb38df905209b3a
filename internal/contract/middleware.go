package contract

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
)

// maxKeptBody is the largest body the middleware keeps to check: larger uploads pass through,
// and only their parameters, headers and statuses are checked.
const maxKeptBody = 32 << 20

// ControlPrefix is the path prefix of the emulator's control API, which is not the service's
// and is not checked.
const ControlPrefix = "/_emulator/"

// Middleware returns a handler that passes every request to next and checks the exchange
// against the document; report receives each deviation (from the goroutine that served the
// request). Requests to the emulator's control API pass unchecked.
func (c *Checker) Middleware(next http.Handler, report func(Deviation)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, ControlPrefix) {
			next.ServeHTTP(w, r)
			return
		}
		reqBody, tooLarge := keepBody(r)
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		switch {
		case rec.hijacked:
			// The connection was taken over and cut (a fault): there is no answer to check.
			rec.status = 0
		case rec.status == 0:
			// A handler that writes nothing answers 200 with an empty body.
			rec.status = http.StatusOK
			rec.header = w.Header().Clone()
		}
		ex := Exchange{Request: r, RequestBody: reqBody, Status: rec.status, Header: rec.header,
			Body: rec.body.Bytes(), BodiesTooLarge: tooLarge || rec.tooLarge}
		for _, d := range c.Check(ex) {
			report(d)
		}
	})
}

// keepBody reads r's body up to maxKeptBody and gives r a body that reads the same bytes. It
// reports whether the body was larger (then the bytes returned are not the whole body).
func keepBody(r *http.Request) ([]byte, bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, false
	}
	kept, err := io.ReadAll(io.LimitReader(r.Body, maxKeptBody+1))
	if err != nil || len(kept) > maxKeptBody {
		r.Body = readCloser{io.MultiReader(bytes.NewReader(kept), r.Body), r.Body}
		return kept, true
	}
	r.Body = io.NopCloser(bytes.NewReader(kept))
	return kept, false
}

type readCloser struct {
	io.Reader
	io.Closer
}

// recorder passes an answer through and keeps a copy of its status, headers and body.
type recorder struct {
	http.ResponseWriter
	status   int
	header   http.Header
	body     bytes.Buffer
	tooLarge bool
	hijacked bool
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
		r.header = r.ResponseWriter.Header().Clone()
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	if r.body.Len()+len(p) <= maxKeptBody {
		r.body.Write(p)
	} else {
		r.tooLarge = true
	}
	return r.ResponseWriter.Write(p)
}

// Hijack hands the connection over, and notes that the exchange has no answer to check.
func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	r.hijacked = true
	return http.NewResponseController(r.ResponseWriter).Hijack()
}

// Unwrap lets http.ResponseController reach the writer underneath (to flush, to set deadlines).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
