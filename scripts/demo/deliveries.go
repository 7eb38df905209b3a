package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// delivery is one line of the receiver's output, which reads
//
//	delivery N PATH webhook=ID event=TYPE KEY=VALUE...: VERDICT
//
// with a KEY=VALUE for each string member of the event's body.
type delivery struct {
	line, path, webhook, event string
	fields                     map[string]string
	verified                   bool
}

// parseDelivery reads a line of the receiver's output; ok is false for any other line.
func parseDelivery(line string) (delivery, bool) {
	head, verdict, found := strings.Cut(line, ": ")
	words := strings.Fields(head)
	if !found || len(words) < 4 || words[0] != "delivery" {
		return delivery{}, false
	}
	d := delivery{line: line, path: words[2], fields: map[string]string{}, verified: verdict == "signature verified"}
	for _, w := range words[3:] {
		if k, v, ok := strings.Cut(w, "="); ok {
			d.fields[k] = v
		}
	}
	d.webhook, d.event = d.fields["webhook"], d.fields["event"]
	return d, true
}

// receiverLines returns the lines the receiver has written so far.
func (d *demo) receiverLines() []string {
	b, err := os.ReadFile(filepath.Join(d.tmp, "receiver.out"))
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// deliveries returns the deliveries the receiver has logged, from the n-th on (0 for all).
func (d *demo) deliveries(from int) []delivery {
	var all []delivery
	for i, line := range d.receiverLines() {
		if dl, ok := parseDelivery(line); ok && i >= from {
			all = append(all, dl)
		}
	}
	return all
}

// waitDeliveries reads the receiver's deliveries from the n-th line on every period until done
// says they are all there, at most tries times; it returns the last read and whether done said so.
func (d *demo) waitDeliveries(ctx context.Context, from, tries int, period time.Duration, done func([]delivery) bool) ([]delivery, bool, error) {
	for range tries {
		got := d.deliveries(from)
		if done(got) {
			return got, true, nil
		}
		if err := sleep(ctx, period); err != nil {
			return nil, false, err
		}
	}
	got := d.deliveries(from)
	return got, done(got), nil
}

// filter returns the deliveries that keep says to keep, in a new slice: the one given may be
// read again.
func filter(ds []delivery, keep func(delivery) bool) []delivery {
	var kept []delivery
	for _, dl := range ds {
		if keep(dl) {
			kept = append(kept, dl)
		}
	}
	return kept
}

// lines returns the deliveries' lines, as the receiver wrote them.
func lines(ds []delivery) []string {
	out := make([]string, len(ds))
	for i, dl := range ds {
		out[i] = dl.line
	}
	return out
}
