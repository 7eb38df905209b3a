package acctest

import (
	"testing"
)

// BadInputRow is one configuration that must fail with a diagnostic that says what is wrong and
// what to do.
type BadInputRow struct {
	Name string
	// Config is the configuration after the provider block; providerBody is what the provider
	// block holds besides base_url and api_key (or in their place, when it sets them).
	Config       string
	ProviderBody string
	// OwnProvider marks a providerBody that sets base_url and api_key itself; %[1]s is the
	// base address and %[2]s the key.
	OwnProvider bool
	// ImportID makes the row an ImportState step on videohost_webhook.test with this id.
	ImportID *string
	Want     string
	// configOnly: the configuration alone is wrong, so the service must see no write.
	ConfigOnly bool
	// noRequest: caught before the provider sends anything (validate, plan or Configure).
	NoRequest bool
	// Hostile answers in place of the emulator; it reports what it saw after the run.
	Hostile func(t *testing.T) (baseURL string, after func(t *testing.T))
	// NotOnOpenTofu, when set, says why the row cannot hold on OpenTofu, which skips it.
	NotOnOpenTofu string
}
