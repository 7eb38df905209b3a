package videohost

import (
	"encoding/json"
	"fmt"
)

// ParseWebhook reads a webhook from a body the service sent and another tool kept, such as
// the state of a generic REST client that created it (Terraform's restapi provider keeps the
// last answer as it came). Members the service may leave out are zero; unknown members are
// ignored. It fails unless the body is a JSON object.
func ParseWebhook(body []byte) (Webhook, error) { return parseKept[Webhook](body, "webhook") }

// ParseLiveStream reads a live stream from a kept body, as ParseWebhook does a webhook.
func ParseLiveStream(body []byte) (LiveStream, error) {
	return parseKept[LiveStream](body, "live stream")
}

// ParsePlayerTheme reads a player theme from a kept body, as ParseWebhook does a webhook.
func ParsePlayerTheme(body []byte) (PlayerTheme, error) {
	return parseKept[PlayerTheme](body, "player theme")
}

func parseKept[T any](body []byte, what string) (T, error) {
	var v T
	// A JSON object, not null, an array or a string: json.Unmarshal would accept null as an
	// empty object.
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return v, fmt.Errorf("not a %s as the service sends it: not a JSON object", what)
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return v, fmt.Errorf("not a %s as the service sends it: %w", what, err)
	}
	return v, nil
}
