package main

import (
	"bytes"
	"crypto/rand"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
)

// captions are the English captions of the demo's video: two cues of WebVTT.
const captions = `WEBVTT

00:00:00.000 --> 00:00:02.000
Welcome to the videohost demo.

00:00:02.000 --> 00:00:04.000
Terraform uploaded this video, its watermark and these captions.
`

// writeRandom writes size random bytes to path: the emulator takes any bytes as a video source.
func writeRandom(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.CopyN(f, rand.Reader, size); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeMedia generates the media of videos.tf in dir, never kept in the repository: 6 MiB of
// random bytes (two chunks of the 5 MiB that main.tf asks for), the captions and a watermark of
// one transparent pixel.
func writeMedia(dir string) error {
	if err := writeRandom(filepath.Join(dir, "video.mp4"), 6<<20); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "en.vtt"), []byte(captions), 0o600); err != nil {
		return err
	}
	var watermark bytes.Buffer
	if err := png.Encode(&watermark, image.NewNRGBA(image.Rect(0, 0, 1, 1))); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "watermark.png"), watermark.Bytes(), 0o600)
}
