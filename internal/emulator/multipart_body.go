package emulator

import (
	"bytes"
	"errors"
	"image"
	_ "image/jpeg" // Registers JPEG for image.DecodeConfig.
	_ "image/png"  // Registers PNG for image.DecodeConfig.
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
)

// Slugs and titles of the multipart uploads' 400s.
const (
	slugExtensionInvalid  = "uploaded-file-extension-invalid"
	titleExtensionInvalid = "Only [jpeg, jpg, JPG, JPEG, png, PNG] extensions are supported."
	detailOneFile         = "Send one file part: this request holds more than one."
	detailFileTooLarge    = "The file is larger than this upload takes: at most "
	detailFileEmpty       = "The file is empty."
)

// maxFieldBytes bounds one form field that is not the file (a videoId, a link).
const maxFieldBytes = 64 << 10

// isMultipart reports whether r's body is multipart/form-data: such requests are uploads.
func isMultipart(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "multipart/form-data"
}

// readMultipart reads r's multipart body part by part, never holding the file: the one file
// part (the part with a file name, or the field file, whatever the other's name) is given to
// sink as it streams in, and the other fields, small, are returned. No file part is 400
// attribute-required naming file; a second one is 400 invalid-attribute naming file. The sink
// refuses the file with the error to answer.
func (e *Emulator) readMultipart(r *http.Request, sink func(*multipart.Part) *apiError) (map[string]string, *apiError) {
	mr, err := r.MultipartReader()
	if err != nil {
		refused := e.fieldError(e.required("file"))
		return nil, &refused
	}
	fields := map[string]string{}
	files := 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			refused := e.invalidPayload()
			return nil, &refused
		}
		if part.FileName() == "" && part.FormName() != "file" {
			b, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
			if err != nil || len(b) > maxFieldBytes {
				refused := e.invalidPayload()
				return nil, &refused
			}
			fields[part.FormName()] = string(b)
			continue
		}
		if files++; files > 1 {
			refused := e.fieldError(e.fieldInvalid("file", detailOneFile))
			return nil, &refused
		}
		if refused := sink(part); refused != nil {
			return nil, refused
		}
	}
	if files == 0 {
		refused := e.fieldError(e.required("file"))
		return nil, &refused
	}
	return fields, nil
}

// readSmallFile reads the file part of r, which must hold at most limit bytes, into memory,
// with the other fields.
func (e *Emulator) readSmallFile(r *http.Request, limit int64) ([]byte, map[string]string, *apiError) {
	var data []byte
	var tooLarge bool
	fields, refused := e.readMultipart(r, func(part *multipart.Part) *apiError {
		b, err := io.ReadAll(io.LimitReader(part, limit+1))
		if err != nil {
			a := e.invalidPayload()
			return &a
		}
		data, tooLarge = b, int64(len(b)) > limit
		return nil
	})
	switch {
	case refused != nil:
		return nil, nil, refused
	case tooLarge:
		a := e.fieldError(e.fieldInvalid("file", detailFileTooLarge+sizeWords(limit)+"."))
		return nil, nil, &a
	case len(data) == 0:
		a := e.fieldError(e.fieldInvalid("file", detailFileEmpty))
		return nil, nil, &a
	}
	return data, fields, nil
}

// sizeWords says a size in the largest whole unit.
func sizeWords(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// uploadedImage is an image file of an upload: its bytes, its format (jpeg or png, found by
// its content) and its size in pixels.
type uploadedImage struct {
	data   []byte
	format string
	config image.Config
	fields map[string]string
}

// readImage reads the file part of r as a JPEG or PNG of at most limit bytes. Another content
// is 400 uploaded-file-extension-invalid naming file, whatever the file's name says.
func (e *Emulator) readImage(r *http.Request, limit int64) (uploadedImage, *apiError) {
	data, fields, refused := e.readSmallFile(r, limit)
	if refused != nil {
		return uploadedImage{}, refused
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "jpeg" && format != "png") {
		a := e.newError(http.StatusBadRequest, slugExtensionInvalid, titleExtensionInvalid)
		a.Name, a.Detail = "file", "The file's content is neither a JPEG nor a PNG image, whatever its name says."
		return uploadedImage{}, &a
	}
	return uploadedImage{data: data, format: format, config: cfg, fields: fields}, nil
}

// isWebVTT reports whether a caption or chapter file starts as WebVTT does (a byte order mark
// may come first).
func isWebVTT(data []byte) bool {
	s := strings.TrimPrefix(string(data), "\uFEFF")
	if !strings.HasPrefix(s, "WEBVTT") {
		return false
	}
	rest := s[len("WEBVTT"):]
	return rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r'
}
