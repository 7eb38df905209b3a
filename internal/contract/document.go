package contract

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// EnvDocument names the environment variable that holds the path of the published document.
const EnvDocument = "VIDEOHOST_OPENAPI"

// HowToGet says where the document comes from, for a run that was not given one.
const HowToGet = EnvDocument + " is not set: the contract check needs the path of api.video's published OpenAPI " +
	"document (oas_apivideo.yaml, from the repository apivideo/api.video-api-client-generator): " +
	"make test and make testunit take the copy kept beside the clone, at the path the GNUmakefile's " +
	EnvDocument + " names, when it is there; elsewhere set " + EnvDocument + "=/path/to/oas_apivideo.yaml"

// Operation is one operation of the document.
type Operation struct {
	ID, Method, Path string
}

// Document is the published document, loaded with its known defects worked around in memory
// (the file is never changed), and a router that finds an operation by method and path.
type Document struct {
	spec   *openapi3.T
	router routers.Router
}

// LoadDocument reads the document at path.
func LoadDocument(path string) (*Document, error) {
	if path == "" {
		return nil, errors.New(HowToGet)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the published OpenAPI document: %w (%s names it)", err, EnvDocument)
	}
	doc, err := ParseDocument(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

// ParseDocument reads a document from its text (YAML or JSON).
func ParseDocument(data []byte) (*Document, error) {
	spec, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("loading the published OpenAPI document: %w", err)
	}
	workAround(spec)
	// The document's servers are the service's public addresses; the traffic checked goes to
	// whatever address the tests chose, so operations are found by path alone.
	spec.Servers = nil
	// The document's examples are not all of their schemas' types (a number written as a
	// string); they are documentation, not the contract.
	noExamples := openapi3.DisableExamplesValidation()
	if err := spec.Validate(context.Background(), noExamples); err != nil {
		return nil, fmt.Errorf("the published OpenAPI document is not valid: %w", err)
	}
	router, err := legacy.NewRouter(spec, noExamples)
	if err != nil {
		return nil, fmt.Errorf("routing the document's operations: %w", err)
	}
	return &Document{spec: spec, router: router}, nil
}

// Operations lists the document's operations, sorted by path and method.
func (d *Document) Operations() []Operation {
	var ops []Operation
	for path, item := range d.spec.Paths.Map() {
		for method, op := range item.Operations() {
			ops = append(ops, Operation{ID: op.OperationID, Method: method, Path: path})
		}
	}
	sort.Slice(ops, func(i, j int) bool {
		if ops[i].Path != ops[j].Path {
			return ops[i].Path < ops[j].Path
		}
		return ops[i].Method < ops[j].Method
	})
	return ops
}

// workAround corrects, in memory, the two known defects of the document: a pattern written with
// JavaScript's /.../ delimiters (as a JSON Schema pattern the slashes would be literal and no
// real value would match), and the vendor extension x-optional-nullable, which marks a member
// that also takes null and must be read as nullable.
func workAround(spec *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	visit := func(ref *openapi3.SchemaRef) { fixSchema(ref, seen) }
	for _, ref := range spec.Components.Schemas {
		visit(ref)
	}
	for _, ref := range spec.Components.Parameters {
		if ref.Value != nil {
			visit(ref.Value.Schema)
		}
	}
	for _, item := range spec.Paths.Map() {
		for _, op := range item.Operations() {
			fixOperation(op, visit)
		}
	}
}

func fixOperation(op *openapi3.Operation, visit func(*openapi3.SchemaRef)) {
	for _, p := range op.Parameters {
		if p.Value != nil {
			visit(p.Value.Schema)
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		for _, mt := range op.RequestBody.Value.Content {
			visit(mt.Schema)
		}
	}
	for _, resp := range op.Responses.Map() {
		if resp.Value == nil {
			continue
		}
		for _, h := range resp.Value.Headers {
			if h.Value != nil {
				visit(h.Value.Schema)
			}
		}
		for _, mt := range resp.Value.Content {
			visit(mt.Schema)
		}
	}
}

// fixSchema corrects one schema and those it holds, each once.
func fixSchema(ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
	if ref == nil || ref.Value == nil || seen[ref.Value] {
		return
	}
	s := ref.Value
	seen[s] = true
	if v, ok := s.Extensions["x-optional-nullable"].(bool); ok && v {
		s.Nullable = true
	}
	if p := s.Pattern; len(p) > 2 && strings.HasPrefix(p, "/") && strings.HasSuffix(p, "/") {
		s.Pattern = "^(?:" + p[1:len(p)-1] + ")$"
	}
	for _, sub := range s.Properties {
		fixSchema(sub, seen)
	}
	fixSchema(s.Items, seen)
	if s.AdditionalProperties.Schema != nil {
		fixSchema(s.AdditionalProperties.Schema, seen)
	}
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, sub := range list {
			fixSchema(sub, seen)
		}
	}
	fixSchema(s.Not, seen)
}
