package uploadtoken

// Terraform closes an ephemeral resource at the end of the run that opened it, but not always:
// when one opening of a run fails (one of count = 5 tokens refused, or a create whose outcome
// stays unknown), Terraform 1.11 to 1.15 close none of the run's ephemeral resources, and a
// killed or crashed run closes nothing. An ephemeral upload token is a credential made for one
// run, so the tokens that this process opened are kept here until their closing, and those
// still open when Terraform stops the provider are deleted then (DeleteUnclosedUploadTokens,
// which the process's lifecycle, internal/lifecycle, calls through provider.Leftovers once the
// plugin server has stopped; Terraform gives the process 2 seconds to exit; those it cannot
// delete in that time, the lifecycle hands to a cleaner process with more). A
// token this misses (a killed provider, a service that does not answer in time) expires at the
// end of its ttl.

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// UnclosedUploadTokens are the ephemeral upload tokens that this process opened and that
// Terraform has not closed yet, with the client that made each.
var UnclosedUploadTokens tokenRegistry

// tokenRegistry holds tokens by the token, each with the client that made it.
type tokenRegistry struct {
	Mu     sync.Mutex
	Tokens map[string]*videohost.Client
}

func (r *tokenRegistry) Keep(c *videohost.Client, token string) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if r.Tokens == nil {
		r.Tokens = map[string]*videohost.Client{}
	}
	r.Tokens[token] = c
}

func (r *tokenRegistry) forget(token string) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	delete(r.Tokens, token)
}

// take empties the registry and returns what it held.
func (r *tokenRegistry) take() map[string]*videohost.Client {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	t := r.Tokens
	r.Tokens = nil
	return t
}

// unclosedDeletes bounds the deletes that DeleteUnclosedUploadTokens sends at once.
const unclosedDeletes = 8

// DeleteUnclosedUploadTokens deletes the ephemeral upload tokens that this process opened and
// Terraform did not close, and returns how many it deleted; ctx bounds the time it may take. A
// token already gone counts as deleted; one whose delete failed (the writes budget spent until
// after ctx ends, a service that does not answer) is kept, for TakeUnclosedUploadTokens. The
// error joins those of the deletes that failed, and never holds a token.
func DeleteUnclosedUploadTokens(ctx context.Context) (int, error) {
	tokens := UnclosedUploadTokens.take()
	var (
		mu      sync.Mutex
		deleted int
		errs    []error
	)
	g := errgroup.Group{}
	g.SetLimit(unclosedDeletes)
	for token, c := range tokens {
		g.Go(func() error {
			err := c.DeleteUploadToken(ctx, token)
			mu.Lock()
			defer mu.Unlock()
			if err == nil || errors.Is(err, videohost.ErrNotFound) {
				deleted++
			} else {
				UnclosedUploadTokens.Keep(c, token)
				errs = append(errs, errors.New("upload token "+UploadTokenFingerprint(token)+": "+err.Error()))
			}
			return nil
		})
	}
	_ = g.Wait()
	return deleted, errors.Join(errs...)
}

// TakeUnclosedUploadTokens empties the registry and returns the tokens it held, by the client
// that made them: those that DeleteUnclosedUploadTokens could not delete in its time, for a
// process that has more.
func TakeUnclosedUploadTokens() map[*videohost.Client][]string {
	byClient := map[*videohost.Client][]string{}
	for token, c := range UnclosedUploadTokens.take() {
		byClient[c] = append(byClient[c], token)
	}
	return byClient
}
