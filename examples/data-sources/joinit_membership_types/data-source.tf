data "joinit_membership_types" "all" {}

# The types members can hold, by name: what an SSO module groups members by.
output "visible_types" {
  value = sort([for t in data.joinit_membership_types.all.membership_types : t.membership_name if t.status == 100])
}

# Memberships joined to their type's price, in the currency's smallest unit.
data "joinit_memberships" "active" {
  status = "active"
}

locals {
  type_by_id = { for t in data.joinit_membership_types.all.membership_types : t.id => t }
}

output "active_dues" {
  value = { for m in data.joinit_memberships.active.memberships : m.id => try(local.type_by_id[m.membership_type].price.value, null) }
}
