# Plays of the last day (the default period), and watch time in France over a week.
data "videohost_analytics_metric" "plays" {
  metric      = "play"
  aggregation = "count"
}

data "videohost_analytics_metric" "watch_time_fr" {
  metric      = "watch-time"
  aggregation = "sum"
  from        = timeadd(plantimestamp(), "-168h")
  filter_by = {
    country = ["FR"]
    tag     = "launch"
  }
}

output "plays_today" {
  value = data.videohost_analytics_metric.plays.value
}
