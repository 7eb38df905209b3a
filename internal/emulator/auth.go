package emulator

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// tokenState holds the refresh tokens and the revocation generation. Every token carries the
// generation it was issued in; RevokeTokens moves the generation on, which invalidates them all.
type tokenState struct {
	mu         sync.Mutex
	generation int64
	refresh    map[string]refreshGrant
}

// refreshGrant is what a refresh token stands for: a key (by fingerprint) and a generation.
type refreshGrant struct {
	subject    string
	generation int64
}

// accessClaims are the claims of an access token.
type accessClaims struct {
	jwt.RegisteredClaims
	Environment string `json:"env"`
	Generation  int64  `json:"gen"`
}

// tokenResponse is the specification's token response.
type tokenResponse struct {
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
}

const jwtIssuer = "videohost-emulator"

// maxRefreshTokens bounds the unused refresh tokens kept.
const maxRefreshTokens = 100000

// maxBodyBytes bounds every request body the emulator reads.
const maxBodyBytes = 1 << 20

// RevokeTokens makes every access and refresh token issued so far invalid.
func (e *Emulator) RevokeTokens() {
	e.tokens.mu.Lock()
	defer e.tokens.mu.Unlock()
	e.tokens.generation++
	clear(e.tokens.refresh)
}

// issueTokens signs an access token for subject and stores a fresh refresh token.
func (e *Emulator) issueTokens(subject string) (tokenResponse, error) {
	e.tokens.mu.Lock()
	gen := e.tokens.generation
	e.tokens.mu.Unlock()
	now := e.now()
	// Rounding the issue time up to a whole second makes the token live at least expires_in
	// seconds, since exp has whole-second precision.
	iat := now.Truncate(time.Second)
	if iat.Before(now) {
		iat = iat.Add(time.Second)
	}
	claims := accessClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    jwtIssuer,
			Subject:   subject,
			IssuedAt:  jwt.NewNumericDate(iat),
			ExpiresAt: jwt.NewNumericDate(iat.Add(e.opts.TokenTTL)),
			ID:        randomID("", 22),
		},
		Environment: e.opts.Environment,
		Generation:  gen,
	}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(e.jwtSecret)
	if err != nil {
		return tokenResponse{}, err
	}
	refresh := randomID("", 48)
	e.tokens.mu.Lock()
	if e.tokens.generation != gen {
		// A revocation happened while signing: the new pair belongs to the old generation.
		e.tokens.mu.Unlock()
		return tokenResponse{}, errRevokedDuringIssue
	}
	if len(e.tokens.refresh) >= maxRefreshTokens {
		// Unused refresh tokens would otherwise pile up in a long run; an arbitrary one goes.
		for k := range e.tokens.refresh {
			delete(e.tokens.refresh, k)
			break
		}
	}
	e.tokens.refresh[refresh] = refreshGrant{subject: subject, generation: gen}
	e.tokens.mu.Unlock()
	return tokenResponse{
		TokenType:    "Bearer",
		ExpiresIn:    int64(e.opts.TokenTTL / time.Second),
		AccessToken:  signed,
		RefreshToken: refresh,
	}, nil
}

var errRevokedDuringIssue = errors.New("tokens were revoked while issuing")

// verifyAccessToken returns the subject of a valid, unexpired, unrevoked access token, or the
// reason it is refused.
func (e *Emulator) verifyAccessToken(raw string) (subject, refusal string) {
	var claims accessClaims
	_, err := jwt.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return e.jwtSecret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithTimeFunc(e.now),
		jwt.WithIssuer(jwtIssuer),
		jwt.WithExpirationRequired(),
	)
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return "", "The access token has expired."
		}
		return "", "The access token is invalid."
	}
	e.tokens.mu.Lock()
	gen := e.tokens.generation
	e.tokens.mu.Unlock()
	if claims.Generation != gen || claims.Environment != e.opts.Environment {
		return "", "The access token has been revoked."
	}
	return claims.Subject, ""
}

// lookupKey returns the fingerprint of a key of this environment, or the 401 that the key gets.
func (e *Emulator) lookupKey(key string) (string, *apiError) {
	for _, k := range e.keys {
		if subtle.ConstantTimeCompare([]byte(k), []byte(key)) == 1 {
			return e.keyFP[k], nil
		}
	}
	if e.otherKeys[key] {
		return "", e.unauthorized(fmt.Sprintf("This API key belongs to the %s environment; this is the %s environment.", e.opts.otherEnvironment(), e.opts.Environment))
	}
	return "", e.unauthorized("The API key is not valid.")
}

func (e *Emulator) unauthorized(title string) *apiError {
	a := e.newError(http.StatusUnauthorized, slugAuthenticationFailed, title)
	return &a
}

// authenticate accepts Basic (the key as user name, empty password) and Bearer (an access
// token) and returns the key's fingerprint.
func (e *Emulator) authenticate(r *http.Request) (string, *apiError) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", e.unauthorized("Authentication is required: use Basic with the API key or Bearer with an access token.")
	}
	scheme, cred, _ := strings.Cut(h, " ")
	switch strings.ToLower(scheme) {
	case "basic":
		user, pass, ok := r.BasicAuth()
		if !ok || pass != "" {
			return "", e.unauthorized("Basic credentials must be the API key followed by a colon and an empty password.")
		}
		return e.lookupKey(user)
	case "bearer":
		sub, refusal := e.verifyAccessToken(strings.TrimSpace(cred))
		if refusal != "" {
			return "", e.unauthorized(refusal)
		}
		return sub, nil
	}
	return "", e.unauthorized("The authorization scheme must be Basic or Bearer.")
}

// readObject reads a JSON object body; false when the body is missing, too large or not an
// object.
func readObject(r *http.Request) (map[string]json.RawMessage, bool) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil || len(b) > maxBodyBytes {
		return nil, false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

// stringAttr decodes one string attribute, or returns the problem when it is missing or not a
// string.
func (e *Emulator) stringAttr(body map[string]json.RawMessage, name string) (string, *problem) {
	raw, present := body[name]
	if !present || string(raw) == "null" {
		p := e.required(name)
		return "", &p
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		p := e.invalid(name, "This attribute must be a string.")
		return "", &p
	}
	return s, nil
}

func (e *Emulator) handleAuthAPIKey(w http.ResponseWriter, body map[string]json.RawMessage) {
	key, p := e.stringAttr(body, "apiKey")
	if p != nil {
		writeError(w, e.attributeError(*p))
		return
	}
	sub, aerr := e.lookupKey(key)
	if aerr != nil {
		writeError(w, *aerr)
		return
	}
	e.writeTokens(w, sub)
}

func (e *Emulator) handleAuthRefresh(w http.ResponseWriter, body map[string]json.RawMessage) {
	token, p := e.stringAttr(body, "refreshToken")
	if p != nil {
		writeError(w, e.attributeError(*p))
		return
	}
	e.tokens.mu.Lock()
	grant, ok := e.tokens.refresh[token]
	if ok {
		delete(e.tokens.refresh, token) // single use
	}
	valid := ok && grant.generation == e.tokens.generation
	e.tokens.mu.Unlock()
	if !valid {
		writeError(w, *e.unauthorized("The refresh token is not valid, was already used or was revoked."))
		return
	}
	e.writeTokens(w, grant.subject)
}

func (e *Emulator) writeTokens(w http.ResponseWriter, subject string) {
	resp, err := e.issueTokens(subject)
	if errors.Is(err, errRevokedDuringIssue) {
		writeError(w, *e.unauthorized("The tokens were revoked; authenticate again."))
		return
	}
	if err != nil {
		writeError(w, e.serverError())
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, resp)
}
