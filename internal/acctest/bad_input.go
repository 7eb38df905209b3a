package provider

import (
	"testing"
)

// badInputRow is one configuration that must fail with a diagnostic that says what is wrong and
// what to do.
type badInputRow struct {
	name string
	// config is the configuration after the provider block; providerBody is what the provider
	// block holds besides base_url and api_key (or in their place, when it sets them).
	config       string
	providerBody string
	// ownProvider marks a providerBody that sets base_url and api_key itself; %[1]s is the
	// base address and %[2]s the key.
	ownProvider bool
	// importID makes the row an ImportState step on videohost_webhook.test with this id.
	importID *string
	want     string
	// configOnly: the configuration alone is wrong, so the service must see no write.
	configOnly bool
	// noRequest: caught before the provider sends anything (validate, plan or Configure).
	noRequest bool
	// hostile answers in place of the emulator; it reports what it saw after the run.
	hostile func(t *testing.T) (baseURL string, after func(t *testing.T))
	// notOnOpenTofu, when set, says why the row cannot hold on OpenTofu, which skips it.
	notOnOpenTofu string
}
