package contract

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// The acceptance tests run as one test binary per package of the provider, so a run's summary
// is gathered from several: each binary writes what it saw to a file of its own (SummaryFile),
// and ReadSummaries adds them up into the run's one summary.

// summaryFile is a Summary as JSON: Go's encoder takes no struct as a map key.
type summaryFile struct {
	Run          string      `json:"run"`
	Requests     int         `json:"requests"`
	Total        int         `json:"total"`
	Operations   []countOf   `json:"operations"`
	Undocumented []countOf   `json:"undocumented"`
	Deviations   []Deviation `json:"deviations"`
}

type countOf struct {
	Operation Operation `json:"operation"`
	Status    int       `json:"status,omitempty"`
	Count     int       `json:"count"`
}

// WriteJSON writes s, as the run named run (the CLI that ran it) saw it.
func (s Summary) WriteJSON(w io.Writer, run string) error {
	f := summaryFile{Run: run, Requests: s.Requests, Total: s.Total, Deviations: s.Deviations}
	for op, n := range s.Operations {
		f.Operations = append(f.Operations, countOf{Operation: op, Count: n})
	}
	for k, n := range s.Undocumented {
		f.Undocumented = append(f.Undocumented, countOf{Operation: k.Operation, Status: k.Status, Count: n})
	}
	return json.NewEncoder(w).Encode(f)
}

// Add returns the summary of what s and o saw together.
func (s Summary) Add(o Summary) Summary {
	sum := Summary{Requests: s.Requests + o.Requests, Total: max(s.Total, o.Total),
		Operations: map[Operation]int{}, Undocumented: map[undocumentedKey]int{},
		Deviations: append(append([]Deviation(nil), s.Deviations...), o.Deviations...)}
	for _, from := range []Summary{s, o} {
		for k, n := range from.Operations {
			sum.Operations[k] += n
		}
		for k, n := range from.Undocumented {
			sum.Undocumented[k] += n
		}
	}
	return sum
}

// ReadSummaries adds up the summaries that the JSON files of dir hold, by run, and returns the
// runs' names sorted with their summaries.
func ReadSummaries(dir string) ([]string, map[string]Summary, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, nil, err
	}
	runs := map[string]Summary{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		var f summaryFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		s := Summary{Requests: f.Requests, Total: f.Total, Deviations: f.Deviations,
			Operations: map[Operation]int{}, Undocumented: map[undocumentedKey]int{}}
		for _, c := range f.Operations {
			s.Operations[c.Operation] += c.Count
		}
		for _, c := range f.Undocumented {
			s.Undocumented[undocumentedKey{c.Operation, c.Status}] += c.Count
		}
		runs[f.Run] = runs[f.Run].Add(s)
	}
	names := make([]string, 0, len(runs))
	for n := range runs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, runs, nil
}
