package provider

// PLACEHOLDERS: the constructors of the functions, the ephemeral resource and the live stream
// data sources, so that provider.go compiles while they are written. Each is replaced by its
// own file (signature_functions.go, access_token_ephemeral_resource.go,
// live_stream_data_source.go, live_streams_data_source.go) and this file is deleted.

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
)

func NewWebhookSignatureFunction() function.Function               { return nil }
func NewVerifyWebhookSignatureFunction() function.Function         { return nil }
func NewAccessTokenEphemeralResource() ephemeral.EphemeralResource { return nil }
func NewLiveStreamDataSource() datasource.DataSource               { return nil }
func NewLiveStreamsDataSource() datasource.DataSource              { return nil }
