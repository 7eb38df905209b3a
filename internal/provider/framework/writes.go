package framework

// This file is the one place through which every resource's create and delete go, so that an
// interrupted apply or destroy (Ctrl-C reaches the provider as a cancelled context; a
// Terraform timeout is the same) ends the same way for every resource:
//
//   - a write that was not sent is not sent, and the resource says once that it was
//     interrupted before anything was sent;
//   - a write that was sent is finished, or reconciled on a fresh context bounded in time,
//     never abandoned: a created object lands in the state, a deleted one leaves it, and the
//     resource says once, as a warning, what was done;
//   - whatever must be read after a create to fill the state (a webhook's signature secret
//     from the list) is read on such a fresh bounded context too, since the object exists
//     and must be recorded whether or not the operation was cancelled meanwhile.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// WriteTarget names the kind of object a resource writes, for diagnostics, and maps the API's
// parameter names to the resource's attributes for the errors that name them.
type WriteTarget struct {
	// Kind is the object's name in Title Case, e.g. "Webhook" or "Live Stream".
	Kind  string
	Attrs map[string]path.Path
	// DeleteByID deletes the object with that id, for a resource whose delete is one call
	// (newDeletedByID); deleting what is already gone succeeds or is ErrNotFound.
	DeleteByID func(*videohost.Client, context.Context, string) error
}

// CreateOps are a resource's parts of a create.
type CreateOps[T any] struct {
	// send makes the create (with any retries of its own) and returns what the service stored.
	send func(ctx context.Context) (T, error)
	// find looks, after a create that was sent but whose response never came, for the object
	// that create stored; ok is false when the service shows none. Nil when the resource
	// cannot tell, in which case such a create is reported as possibly orphaned.
	find func(ctx context.Context) (obj T, ok bool, err error)
	// Complete fills what the create's response lacked (a follow-up read); it runs on a
	// context that is not cancelled with the operation, and may only add to obj.
	Complete func(ctx context.Context, obj T) T
	// id is the object's identifier, for diagnostics and logs.
	id func(obj T) string
}

// SettleContext is a context for the work that must still be done for a write once it is
// under way: not cancelled with ctx (whose values, such as the logger, it keeps), but bounded by
// the client's request timeout, the most Terraform may wait beyond its own shutdown when the
// service hangs.
func SettleContext(ctx context.Context, pd *ProviderData) (context.Context, context.CancelFunc) {
	return pd.Client.Detached(ctx)
}

// Interrupted reports whether ctx, the context of a Terraform operation, has ended: the user
// interrupted Terraform, or an operation timeout elapsed.
func Interrupted(ctx context.Context) bool { return ctx.Err() != nil }

// notSent reports whether err says that the request was never sent: the operation's context
// ended while the request waited (for the rate limit, or a token).
func notSent(err error) bool { return errors.Is(err, videohost.ErrInterrupted) }

// CreateObject runs a resource's create through the shared rules of this file. It returns the
// object to record in the state, and false (with one error diagnostic added) when there is
// nothing to record.
func CreateObject[T any](ctx context.Context, pd *ProviderData, t WriteTarget, diags *diag.Diagnostics, ops CreateOps[T]) (T, bool) {
	var zero T
	summary := "Unable to Create " + t.Kind
	defer NoteRateLimitWaits(diags, RateWaitsNow(pd))
	obj, err := ops.send(ctx)
	var refused *AdoptionError
	switch {
	case err == nil:
	case errors.As(err, &refused):
		if refused.Attr.Equal(path.Empty()) {
			diags.AddError(refused.Summary, refused.Detail)
		} else {
			diags.AddAttributeError(refused.Attr, refused.Summary, refused.Detail)
		}
		return zero, false
	case notSent(err) || Interrupted(ctx) && !errors.Is(err, videohost.ErrAmbiguous):
		// The client reports a create that may have been sent, and then failed, as ambiguous;
		// any other failure of an interrupted create was not sent.
		addInterruptedBeforeSending(diags, t, "Create", "Nothing was created. Run terraform apply again to create it.")
		return zero, false
	case !Interrupted(ctx):
		AddAPIErrorDiagnostics(diags, summary, err, pd, t.Attrs)
		return zero, false
	default:
		// Interrupted after the request may have been sent: what the service made of it is
		// found out now, on a context of its own, instead of being abandoned.
		sctx, cancel := SettleContext(ctx, pd)
		defer cancel()
		var (
			found T
			ok    bool
			ferr  = errors.New("this kind of object cannot be looked for")
		)
		if ops.find != nil {
			tflog.Info(ctx, "interrupted after a create was sent: looking for what it stored", map[string]any{"kind": t.Kind})
			found, ok, ferr = ops.find(sctx)
		}
		switch {
		case ferr != nil:
			diags.AddError(t.Kind+" Create Interrupted",
				fmt.Sprintf("Terraform was interrupted after the create of this %s was sent, before its response "+
					"arrived, and finding out what the service stored failed: %v. A %s may exist on the service "+
					"that no state records: list them (the data source of the same kind, or terraform query), "+
					"then import or delete it. Cause of the interrupted create: %v", lower(t.Kind), ferr, lower(t.Kind), err))
			return zero, false
		case !ok:
			diags.AddError(t.Kind+" Create Interrupted",
				fmt.Sprintf("Terraform was interrupted after the create of this %s was sent, before its response "+
					"arrived. The service's list shows no %s that it stored, so nothing was created and nothing "+
					"is recorded. Run terraform apply again to create it.", lower(t.Kind), lower(t.Kind)))
			return zero, false
		}
		obj = found
	}

	sctx, cancel := SettleContext(ctx, pd)
	defer cancel()
	if ops.Complete != nil {
		obj = ops.Complete(sctx, obj)
	}
	if Interrupted(ctx) {
		diags.AddWarning(t.Kind+" Create Interrupted After It Was Sent",
			fmt.Sprintf("Terraform was interrupted while this %s was being created. The create had already been "+
				"sent, so it was finished, and %s %s is recorded in the state. Run terraform apply again to "+
				"complete the rest of the configuration.", lower(t.Kind), lower(t.Kind), ops.id(obj)))
	}
	return obj, true
}

// DeleteObject runs a resource's delete through the shared rules of this file: del must be
// safe to send again (a delete of what is already gone succeeds or reports ErrNotFound). It
// reports whether the object is gone, so that Terraform removes it from the state; on false
// one error diagnostic was added and the object stays in the state.
func DeleteObject(ctx context.Context, pd *ProviderData, t WriteTarget, diags *diag.Diagnostics, id string, del func(ctx context.Context) error) bool {
	summary := "Unable to Delete " + t.Kind
	defer NoteRateLimitWaits(diags, RateWaitsNow(pd))
	err := del(ctx)
	switch {
	case err == nil || errors.Is(err, videohost.ErrNotFound):
	case notSent(err):
		addInterruptedBeforeSending(diags, t, "Delete", fmt.Sprintf("The %s %s still exists and stays in the "+
			"state. Run terraform destroy (or apply) again to delete it.", lower(t.Kind), id))
		return false
	case !Interrupted(ctx):
		AddAPIErrorDiagnostics(diags, summary, err, pd, t.Attrs)
		return false
	default:
		// Interrupted after the delete may have been sent: it is finished on a context of its
		// own, which is safe since a delete of what is gone changes nothing.
		tflog.Info(ctx, "interrupted after a delete was sent: finishing it", map[string]any{"kind": t.Kind, "id": id})
		sctx, cancel := SettleContext(ctx, pd)
		defer cancel()
		if ferr := del(sctx); ferr != nil && !errors.Is(ferr, videohost.ErrNotFound) {
			diags.AddError(t.Kind+" Delete Interrupted",
				fmt.Sprintf("Terraform was interrupted after the delete of %s %s was sent, and finishing it failed: "+
					"%v. The %s stays in the state; run terraform destroy (or apply) again to delete it.",
					lower(t.Kind), id, ferr, lower(t.Kind)))
			return false
		}
	}
	if Interrupted(ctx) {
		diags.AddWarning(t.Kind+" Delete Interrupted After It Was Sent",
			fmt.Sprintf("Terraform was interrupted while %s %s was being deleted. The delete had already been "+
				"sent, so it was finished, and the %s is removed from the state.", lower(t.Kind), id, lower(t.Kind)))
	}
	return true
}

// addInterruptedBeforeSending is the one diagnostic of a write that Terraform interrupted
// before it was sent. what is "Create" or "Delete"; next says where that leaves the user.
func addInterruptedBeforeSending(diags *diag.Diagnostics, t WriteTarget, what, next string) {
	diags.AddError(t.Kind+" "+what+" Interrupted",
		fmt.Sprintf("Terraform was interrupted before anything was sent to the service for the %s of this %s. %s",
			strings.ToLower(what), lower(t.Kind), next))
}
