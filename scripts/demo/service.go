package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// httpClient makes every request of the demo; no answer takes longer on loopback.
var httpClient = &http.Client{Timeout: 30 * time.Second}

// control calls the emulator's control API with a JSON body (none when body is "") and decodes
// its answer into out, when out is not nil; it fails on an HTTP error.
func (d *demo) control(ctx context.Context, method, path, body string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, d.emulatorURL+"/_emulator"+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	// The control API takes JSON bodies only, an empty one included.
	req.Header.Set("Content-Type", "application/json")
	if _, err := do(req, out); err != nil {
		return fmt.Errorf("control API: %s %s: %w", method, path, err)
	}
	return nil
}

// apiGet GETs a path of the service with the API key, as any client would, and decodes the
// answer into out, when out is not nil; it fails on an HTTP error.
func (d *demo) apiGet(ctx context.Context, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.emulatorURL+path, nil)
	if err != nil {
		return err
	}
	req.SetBasicAuth(d.apiKey, "")
	if _, err := do(req, out); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return nil
}

// httpError is an answer with an error status.
type httpError struct {
	status int
	body   string
}

func (e *httpError) Error() string { return fmt.Sprintf("answered %d: %s", e.status, e.body) }

// gone says whether the service answers 404 to a GET of path with the API key.
func (d *demo) gone(ctx context.Context, path string) (bool, error) {
	err := d.apiGet(ctx, path, nil)
	var status *httpError
	if errors.As(err, &status) && status.status == http.StatusNotFound {
		return true, nil
	}
	return false, err
}

// count returns the itemsTotal of a list of the service, which counts every page.
func (d *demo) count(ctx context.Context, path string) (int, error) {
	var page struct {
		Pagination struct {
			ItemsTotal int `json:"itemsTotal"`
		} `json:"pagination"`
	}
	err := d.apiGet(ctx, path, &page)
	return page.Pagination.ItemsTotal, err
}

// do sends a request, decodes a successful answer into out, when out is not nil, and returns
// its status. The error never holds the request's URL, which may hold a token.
func do(req *http.Request, out any) (int, error) {
	resp, err := httpClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, &httpError{resp.StatusCode, strings.TrimSpace(string(body))}
	}
	if out == nil {
		return resp.StatusCode, nil
	}
	return resp.StatusCode, json.Unmarshal(body, out)
}

// uploadWithToken posts a file to POST /upload?token= with the upload token as the only
// credential, and returns the new video's id. The answer is kept in upload.json, which the check
// for secrets reads.
func (d *demo) uploadWithToken(ctx context.Context, token, file string) (string, error) {
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	part, err := form.CreateFormFile("file", filepath.Base(file))
	if err != nil {
		return "", err
	}
	content, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if _, err := part.Write(content); err != nil {
		return "", err
	}
	if err := form.Close(); err != nil {
		return "", err
	}
	u := d.emulatorURL + "/upload?" + url.Values{"token": {token}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, &body)
	if err != nil {
		return "", errors.New("POST /upload?token=(the token): the request could not be made")
	}
	req.Header.Set("Content-Type", form.FormDataContentType())
	var answer json.RawMessage
	code, err := do(req, &answer)
	var status *httpError
	if errors.As(err, &status) {
		answer = json.RawMessage(status.body)
	} else if err == nil && code != http.StatusCreated {
		err = fmt.Errorf("answered %d, not 201", code)
	}
	if werr := os.WriteFile(filepath.Join(d.tmp, "upload.json"), answer, 0o600); werr != nil {
		return "", werr
	}
	if err != nil {
		return "", fmt.Errorf("POST /upload?token=(the token) %w", err)
	}
	var video struct {
		VideoID string `json:"videoId"`
	}
	if err := json.Unmarshal(answer, &video); err != nil || video.VideoID == "" {
		return "", errors.New("POST /upload?token=(the token) answered no videoId")
	}
	return video.VideoID, nil
}
