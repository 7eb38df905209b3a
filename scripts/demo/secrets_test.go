package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFilesWithSecrets: a secret is found in every kind of file the demo writes its output to,
// and only there: the key rings (below the directory) and the state hold secrets by design.
func TestFilesWithSecrets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	secrets := []string{"rk_0123", "tok_4567"}
	write("demo.txt", "step 1\n")
	write("apply.txt", "restream key rk_0123 shown\n")
	write("receiver.out", "delivery 1 ...\n")
	write("emulator.err", "upload with tok_4567\n")
	write("upload.json", `{"videoId":"vi1"}`)
	write("keys/managed.json", `{"webhook_1":"rk_0123"}`)
	write("work/terraform.tfstate", "tok_4567")
	found, err := filesWithSecrets(dir, secrets)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"apply.txt", "emulator.err"}; !slices.Equal(found, want) {
		t.Errorf("found %q, want %q", found, want)
	}
	if found, _ := filesWithSecrets(dir, nil); len(found) != 0 {
		t.Errorf("with no secret, found %q", found)
	}
}

func TestAddSecretRefusesEmpty(t *testing.T) {
	var d demo
	if err := d.addSecret(""); err == nil {
		t.Error("an empty secret was accepted: it would be found in every file")
	}
	if err := d.addSecret("sk"); err != nil || !slices.Equal(d.secrets, []string{"sk"}) {
		t.Errorf("addSecret(sk): %v, secrets %q", err, d.secrets)
	}
}

func TestRedact(t *testing.T) {
	d := demo{secrets: []string{"tok_4567", "rk_0123"}}
	got := d.redact("POST /upload?token=tok_4567 answered 400: key rk_0123 and tok_4567")
	if strings.Contains(got, "tok_4567") || strings.Contains(got, "rk_0123") || strings.Count(got, "(a secret)") != 3 {
		t.Errorf("redact left %q", got)
	}
}
