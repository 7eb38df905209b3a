# Plays of the last day per country, most played first.
data "videohost_analytics_breakdown" "countries" {
  metric     = "play"
  breakdown  = "country"
  sort_by    = "metricValue"
  sort_order = "desc"
}

output "plays_by_country" {
  value = { for b in data.videohost_analytics_breakdown.countries.buckets : b.dimension_value => b.metric_value }
}
