package emulator

import (
	"net/http"
)

// CORS: a browser page may call the endpoints that the service's browser uploader uses (the
// upload with a token, a video's source with an access token, and the refresh of that token)
// from any origin. No cookie is involved (credentials travel in the Authorization header or the
// token in the query), so every origin is allowed, without credentials.
const (
	corsAllowMethods = "POST, OPTIONS"
	// The uploader sends Content-Range for each chunk, Authorization with an access token, and
	// its AV-Origin-* headers; Content-Type is set by the browser for the form data.
	corsAllowHeaders  = "Authorization, Content-Type, Content-Range, AV-Origin-Client, AV-Origin-App, AV-Origin-Sdk"
	corsExposeHeaders = "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Retry-After"
	corsMaxAge        = "600"
)

// serveCORS adds the CORS headers to the answers of a browser path (a route marked browser in
// serviceRoutes: /upload, /auth/refresh and /videos/{videoId}/source) and answers its
// preflight requests (204), which carry no credentials and so are neither rate limited nor
// counted; true when the request was answered.
func (e *Emulator) serveCORS(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	h.Set("Access-Control-Allow-Methods", corsAllowMethods)
	h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
	h.Set("Access-Control-Max-Age", corsMaxAge)
	w.WriteHeader(http.StatusNoContent)
	return true
}
