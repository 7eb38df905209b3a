package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// listing says how the objects of one walk of a service list become the results of a list
// resource (terraform query). Every list resource of the provider fills one in and hands its
// client's walk to results; webhook_list_resource.go is the model. A new one needs: a client
// method that returns the walk as an iter.Seq2 (Paginate, never a collected slice), a type
// with Metadata naming the managed resource, ListResourceConfigSchema with the service's list
// filters, Configure, and List that checks requireConfigured and reads the config before
// setting stream.Results; its registration in ListResources; an identity on the managed
// resource (resource_identity.go); and its page in templates/list-resources/ with its example
// in examples/list-resources/ (static_docs_test.go checks them).
type listing[T any] struct {
	// what names the objects in logs, such as "webhooks".
	what string
	// id is the object's id: its identity, and the id attribute of its resource.
	id func(T) string
	// displayName is the line terraform query prints for the object: words a person
	// recognises it by, not only its id.
	displayName func(T) string
	// model is the resource's state of the object, as the listed object gives it; it is called
	// only when the list block sets include_resource, and must not call the service.
	model func(context.Context, T) (any, diag.Diagnostics)
	// errorSummary titles the diagnostic of a walk that fails, such as "Unable to List Webhooks".
	errorSummary string
	// attrs maps the parameters of the list call to the attributes of the list block.
	attrs map[string]path.Path
}

// results streams the objects of walk as list results while the walk reads them: a page is
// read only when the results of the one before it have been pushed, so memory holds one page
// whatever the number of objects, and once the request's limit is reached no further page is
// read. A walk that fails ends the stream with one error result after the results pushed so
// far.
func (l listing[T]) results(ctx context.Context, req list.ListRequest, pd *providerData, walk iter.Seq2[T, error]) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var pushed int64
		defer func() {
			tflog.Debug(ctx, "listed "+l.what, map[string]any{"results": pushed, "limit": req.Limit, "include_resource": req.IncludeResource})
		}()
		for obj, err := range walk {
			if err != nil {
				var diags diag.Diagnostics
				addAPIErrorDiagnostics(&diags, l.errorSummary, err, pd, l.attrs)
				push(list.ListResult{Diagnostics: diags})
				return
			}
			if !push(l.result(ctx, req, obj)) {
				return
			}
			pushed++
			// Terraform always sends the list block's limit (100 when the block sets none); a
			// zero limit, from a client of the protocol that sets none, does not bound the walk.
			if req.Limit > 0 && pushed >= req.Limit {
				return
			}
		}
	}
}

// result is the list result of one object.
func (l listing[T]) result(ctx context.Context, req list.ListRequest, obj T) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = l.displayName(obj)
	r.Diagnostics.Append(setIDIdentity(ctx, r.Identity, types.StringValue(l.id(obj)))...)
	if req.IncludeResource {
		m, diags := l.model(ctx, obj)
		r.Diagnostics.Append(diags...)
		if !diags.HasError() {
			r.Diagnostics.Append(r.Resource.Set(ctx, m)...)
		}
	}
	return r
}
