package videohost

import "errors"

// ErrInterrupted marks a call whose context ended before its request was sent.
//
// It stands here until the client branch, which defines it in errors.go and returns it from
// the request path, is merged; this file is then deleted.
var ErrInterrupted = errors.New("videohost: interrupted before the request was sent")
