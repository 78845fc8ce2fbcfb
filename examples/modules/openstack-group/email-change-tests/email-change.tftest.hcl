# A member who changes their e-mail address, against three Join It
# sandboxes of one seed, with OpenStack mocked on its real schema (make e2e
# applies the same change to a real Keystone): the sandbox of
# JOINIT_BASE_URL as it was, one where the member's address changed only in
# case (after_case_url), one where it changed to another address
# (after_new_url). The provider's make test (TestAccExample_moduleTests)
# starts them, makes the changes through the sandbox's ChangeEmail and
# writes terraform.tfvars here: the two URLs, the member's address before
# (old_email) and after each change (case_email, new_email), as Join It
# keeps them, case included.
#
# previous_members is what the first apply left: the members of "before".

# A run that names its providers gets those alone: each names the mock too.
mock_provider "openstack" {}

provider "joinit" {}

provider "joinit" {
  alias    = "after_case"
  base_url = var.after_case_url
}

provider "joinit" {
  alias    = "after_new"
  base_url = var.after_new_url
}

variables {
  group_name = "members"
}

run "before" {
  command = plan

  assert {
    condition     = contains(output.members, lower(var.old_email)) && contains(keys(openstack_identity_user_v3.member), lower(var.old_email))
    error_message = "the member (${var.old_email}) is not in the group or has no user before the change"
  }
}

# Keystone users are named by the address lower-cased: an address changed
# only in case is the same user, so nothing is planned, and no removal is
# counted (max_removals 0 passes).
run "an_address_changed_only_in_case_changes_nothing" {
  command = plan

  providers = {
    joinit    = joinit.after_case
    openstack = openstack
  }

  variables {
    previous_members = run.before.members
    max_removals     = 0
  }

  assert {
    condition     = length(output.to_add) == 0 && length(output.to_remove) == 0 && output.members == run.before.members
    error_message = "after ${var.old_email} became ${var.case_email}: to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}; want nothing planned"
  }
  assert {
    condition     = contains([for r in data.joinit_memberships.all.records : r.email], var.case_email) && !contains([for r in data.joinit_memberships.all.records : r.email], var.old_email)
    error_message = "the read does not hold ${var.case_email} in place of ${var.old_email}: the change in case did not reach it"
  }
  assert {
    condition     = try(openstack_identity_user_v3.member[lower(var.old_email)].name == lower(var.old_email) && openstack_identity_user_v3.member[lower(var.old_email)].enabled, false)
    error_message = "the member's user is not the one named ${lower(var.old_email)}, enabled"
  }
}

# Another address is another user (the address is the name): the group
# loses the old user and gains the new one in one plan, and the old user is
# deleted, as the module's README says.
run "a_new_address_moves_the_group_membership_to_a_new_user" {
  command = plan

  providers = {
    joinit    = joinit.after_new
    openstack = openstack
  }

  variables {
    previous_members = run.before.members
    max_removals     = 1
  }

  assert {
    condition     = output.to_remove == tolist([lower(var.old_email)]) && output.to_add == tolist([lower(var.new_email)])
    error_message = "after ${var.old_email} became ${var.new_email}: to_remove ${jsonencode(output.to_remove)}, to_add ${jsonencode(output.to_add)}; want the old address out and the new one in"
  }
  assert {
    condition     = contains([for r in data.joinit_memberships.all.records : r.email], var.new_email)
    error_message = "the read does not hold ${var.new_email} as Join It keeps it"
  }
  assert {
    condition     = contains(keys(openstack_identity_user_membership_v3.member), lower(var.new_email)) && !contains(keys(openstack_identity_user_membership_v3.member), lower(var.old_email))
    error_message = "the group's memberships: want ${lower(var.new_email)} and not ${lower(var.old_email)}"
  }
  assert {
    condition     = try(openstack_identity_user_v3.member[lower(var.new_email)].enabled, false) && !contains(keys(openstack_identity_user_v3.member), lower(var.old_email))
    error_message = "users: want ${lower(var.new_email)} enabled and no user ${lower(var.old_email)} (the old user is deleted)"
  }
}

# max_removals counts it as one removal: 0 stops the plan.
run "max_removals_counts_the_old_address_as_one_removal" {
  command = plan

  providers = {
    joinit    = joinit.after_new
    openstack = openstack
  }

  variables {
    previous_members = run.before.members
    max_removals     = 0
  }

  expect_failures = [openstack_identity_group_v3.this]
}
