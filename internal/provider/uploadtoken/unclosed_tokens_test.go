package uploadtoken_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestDeleteUnclosedUploadTokens deletes every token kept as unclosed, counts one already gone
// as deleted, leaves the tokens it was not given, and empties the registry. A delete that fails
// is reported by the token's fingerprint, never the token, and its token stays for
// TakeUnclosedUploadTokens.
func TestDeleteUnclosedUploadTokens(t *testing.T) {
	emu, pd := acctest.AdoptionEnv(t, emulator.Options{Limits: acctest.RaisedLimits}, nil)
	ctx := t.Context()
	var kept []string
	for range 3 {
		tok, err := pd.Client.CreateUploadToken(ctx, 900)
		if err != nil {
			t.Fatal(err)
		}
		uploadtoken.UnclosedUploadTokens.Keep(pd.Client, tok.Token)
		kept = append(kept, tok.Token)
	}
	other, err := pd.Client.CreateUploadToken(ctx, 900) // not an ephemeral token of this process
	if err != nil {
		t.Fatal(err)
	}
	if err := pd.Client.DeleteUploadToken(ctx, kept[0]); err != nil { // closed meanwhile by someone else
		t.Fatal(err)
	}
	n, err := uploadtoken.DeleteUnclosedUploadTokens(ctx)
	if err != nil || n != 3 {
		t.Fatalf("deleted %d (%v); want 3, the one already gone included", n, err)
	}
	left, err := pd.Client.ListUploadTokens(ctx, videohost.UploadTokenFilter{})
	if err != nil || len(left) != 1 || left[0].Token != other.Token {
		t.Fatalf("%d tokens left (%v); want only the one never kept", len(left), err)
	}
	if n, _ := uploadtoken.DeleteUnclosedUploadTokens(ctx); n != 0 {
		t.Errorf("a second call deleted %d: the registry was not emptied", n)
	}

	// A service that fails every request: the error names the token by its fingerprint.
	uploadtoken.UnclosedUploadTokens.Keep(pd.Client, other.Token)
	emu.SetFaults(emulator.Faults{ErrorRate: 1})
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err = uploadtoken.DeleteUnclosedUploadTokens(dctx)
	if err == nil || strings.Contains(err.Error(), other.Token) || !strings.Contains(err.Error(), uploadtoken.UploadTokenFingerprint(other.Token)) {
		t.Errorf("the failed delete's error must name the fingerprint and not the token: %v", err)
	}
	// The token whose delete failed is kept, with its client, for a process with more time.
	taken := uploadtoken.TakeUnclosedUploadTokens()
	if len(taken) != 1 || len(taken[pd.Client]) != 1 || taken[pd.Client][0] != other.Token {
		t.Errorf("after the failed delete the registry held %d clients' tokens; want the one token, by its client", len(taken))
	}
	if again := uploadtoken.TakeUnclosedUploadTokens(); len(again) != 0 {
		t.Errorf("TakeUnclosedUploadTokens left %d clients' tokens in the registry", len(again))
	}
}
