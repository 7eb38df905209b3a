package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// addSecret adds a secret to those that must appear nowhere the demo prints or logs. The list
// is kept in memory only, so that no secret is ever on a command line or in a file.
func (d *demo) addSecret(secret string) error {
	if secret == "" {
		return errors.New("an empty secret would be found in everything")
	}
	d.secrets = append(d.secrets, secret)
	return nil
}

// noSecretShown fails when a secret of the list appears in anything the demo printed or
// logged: its transcript, terraform's runs and outputs (*.txt), the receiver's and the
// emulator's output, the answers it kept (*.json). The state and the receiver's key rings are
// left out: they hold secrets by design.
func (d *demo) noSecretShown(ctx context.Context, what string) error {
	out, err := d.tf(ctx, "output", "-no-color").Output()
	if err != nil {
		return fmt.Errorf("terraform output failed: %w", err)
	}
	if err := os.WriteFile(filepath.Join(d.tmp, "outputs.txt"), out, 0o600); err != nil {
		return err
	}
	found, err := filesWithSecrets(d.tmp, d.secrets)
	if err != nil {
		return err
	}
	if len(found) > 0 {
		return fmt.Errorf("a secret (%s) appears in %s", what, strings.Join(found, " "))
	}
	return nil
}

// filesWithSecrets returns the names of the files of dir (not below it) named *.txt, *.out,
// *.err or *.json that hold any of the secrets.
func filesWithSecrets(dir string, secrets []string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var found []string
	for _, e := range entries {
		if e.IsDir() || !slices.Contains([]string{".txt", ".out", ".err", ".json"}, filepath.Ext(e.Name())) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(secrets, func(s string) bool { return strings.Contains(string(b), s) }) {
			found = append(found, e.Name())
		}
	}
	return found, nil
}

// redact replaces every secret of the list in s, so that a failure's message or the lines shown
// with it cannot show one.
func (d *demo) redact(s string) string {
	for _, secret := range d.secrets {
		s = strings.ReplaceAll(s, secret, "(a secret)")
	}
	return s
}
