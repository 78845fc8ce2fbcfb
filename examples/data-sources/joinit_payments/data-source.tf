data "joinit_payments" "all" {}

locals {
  # Amounts are the integers the API returns, in the currency's smallest
  # unit (cents: 10000 usd is $100.00).
  totals_by_currency = {
    for p in data.joinit_payments.all.payments :
    coalesce(p.currency, "unknown") => p.total...
    if p.total != null
  }
}

output "payment_count" {
  value = length(data.joinit_payments.all.payments)
}

output "payment_totals_by_currency" {
  value = { for currency, totals in local.totals_by_currency : currency => sum(totals) }
}

output "payments_in_2026" {
  description = "Ids of payments whose payment_date falls in 2026 (UTC)."
  value = [
    for p in data.joinit_payments.all.payments : p.id
    if startswith(coalesce(p.payment_date, "-"), "2026-")
  ]
}

# Only the attributes used: records holds objects of these three.
data "joinit_payments" "amounts" {
  fields = ["currency", "total", "payment_date"]
}

output "payment_total_2026" {
  value = sum(concat([0], [
    for p in data.joinit_payments.amounts.records : p.total
    if p.total != null && startswith(coalesce(p.payment_date, "-"), "2026-")
  ]))
}
