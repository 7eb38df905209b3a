# A webhook is imported by its webhookId, as the service returns it.
terraform import videohost_webhook.encoding webhook_3kFOCM2GbqwV8mX7zR1aNn
