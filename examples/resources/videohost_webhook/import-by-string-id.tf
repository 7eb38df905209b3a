import {
  to = videohost_webhook.encoding
  id = "webhook_3kFOCM2GbqwV8mX7zR1aNn"
}
