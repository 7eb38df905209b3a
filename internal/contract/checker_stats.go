package contract

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Checker validates exchanges against a Document and keeps what it saw, for the summary of a
// whole run. It is safe for concurrent use.
type Checker struct {
	doc *Document

	mu           sync.Mutex
	requests     int
	operations   map[Operation]int
	undocumented map[undocumentedKey]int
	deviations   []Deviation
}

type undocumentedKey struct {
	Operation Operation
	Status    int
}

// NewChecker returns a checker of doc with nothing seen yet.
func NewChecker(doc *Document) *Checker {
	return &Checker{doc: doc, operations: map[Operation]int{}, undocumented: map[undocumentedKey]int{}}
}

// Load reads the document at path and returns a checker of it.
func Load(path string) (*Checker, error) {
	doc, err := LoadDocument(path)
	if err != nil {
		return nil, err
	}
	return NewChecker(doc), nil
}

// Document returns the document that c checks against.
func (c *Checker) Document() *Document { return c.doc }

// Check validates one exchange, records it and returns its deviations.
func (c *Checker) Check(ex Exchange) []Deviation {
	v := c.doc.check(ex)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	if v.Matched {
		c.operations[v.Operation]++
	}
	if v.Undocumented {
		c.undocumented[undocumentedKey{v.Operation, ex.Status}]++
	}
	c.deviations = append(c.deviations, v.Deviations...)
	return v.Deviations
}

// Summary is what a checker saw.
type Summary struct {
	Requests   int
	Operations map[Operation]int // requests per operation seen
	Total      int               // operations in the document
	// Undocumented counts the answers, per operation and status, whose status the document does
	// not list for the operation: reported, not failed.
	Undocumented map[undocumentedKey]int
	Deviations   []Deviation
}

// Summary returns a copy of what c has seen so far.
func (c *Checker) Summary() Summary {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := Summary{Requests: c.requests, Total: len(c.doc.Operations()),
		Operations: map[Operation]int{}, Undocumented: map[undocumentedKey]int{},
		Deviations: append([]Deviation(nil), c.deviations...)}
	for k, n := range c.operations {
		s.Operations[k] = n
	}
	for k, n := range c.undocumented {
		s.Undocumented[k] = n
	}
	return s
}

// WriteTo prints the summary: the counts, the table of undocumented statuses, the deviations.
func (s Summary) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "contract check: %d requests, %d of the document's %d operations, %d deviations\n",
		s.Requests, len(s.Operations), s.Total, len(s.Deviations))
	if len(s.Undocumented) > 0 {
		b.WriteString("contract check: statuses the document does not list (not failed; the written contract rules there):\n")
		fmt.Fprintf(&b, "  %-45s %-8s %-40s %6s %6s\n", "operation", "method", "path", "status", "count")
		for _, k := range s.undocumentedKeys() {
			status := strconv.Itoa(k.Status)
			if k.Status == 0 {
				status = "cut" // the connection was cut before an answer (a fault)
			}
			fmt.Fprintf(&b, "  %-45s %-8s %-40s %6s %6d\n", k.Operation.ID, k.Operation.Method, k.Operation.Path, status, s.Undocumented[k])
		}
	}
	if len(s.Operations) > 0 {
		fmt.Fprintf(&b, "contract check: operations reached: %s\n", strings.Join(s.OperationIDs(), " "))
		fmt.Fprintf(&b, "contract check: requests by method (of the operations reached): %s\n", s.byMethod())
	}
	for _, d := range s.Deviations {
		fmt.Fprintf(&b, "contract check: DEVIATION %s\n", d)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// OperationIDs lists the ids of the operations seen, sorted.
func (s Summary) OperationIDs() []string {
	ids := make([]string, 0, len(s.Operations))
	for op := range s.Operations {
		ids = append(ids, op.ID)
	}
	sort.Strings(ids)
	return ids
}

func (s Summary) undocumentedKeys() []undocumentedKey {
	keys := make([]undocumentedKey, 0, len(s.Undocumented))
	for k := range s.Undocumented {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Operation.ID != keys[j].Operation.ID {
			return keys[i].Operation.ID < keys[j].Operation.ID
		}
		return keys[i].Status < keys[j].Status
	})
	return keys
}

// byMethod counts the requests of the operations seen by method ("GET 120, POST 31"), what a
// run costs in each rate class.
func (s Summary) byMethod() string {
	counts := map[string]int{}
	for op, n := range s.Operations {
		counts[op.Method] += n
	}
	methods := make([]string, 0, len(counts))
	for m := range counts {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	parts := make([]string, len(methods))
	for i, m := range methods {
		parts[i] = fmt.Sprintf("%s %d", m, counts[m])
	}
	return strings.Join(parts, ", ")
}
