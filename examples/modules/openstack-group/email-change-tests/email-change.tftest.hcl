# A member who changes their e-mail address, against three Join It
# sandboxes of one seed, with OpenStack mocked on its real schema (make e2e
# applies the same change to a real Keystone): the sandbox of
# JOINIT_BASE_URL as it was, one where the member's address changed only in
# case (after_case_url), one where it changed to another address
# (after_new_url). The provider's make test (TestAccModules_tests)
# starts them, makes the changes through the sandbox's ChangeEmail and
# writes terraform.tfvars here: the two URLs, the member's address before
# (old_email) and after each change (case_email, new_email), as Join It
# keeps them, case included.
#
# previous_members is what the first apply left: the planned output of
# "before" (user keys).

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
    condition     = length([for k, u in openstack_identity_user_v3.member : k if u.name == lower(var.old_email) && u.enabled && contains(output.planned, k)]) == 1
    error_message = "the member (${var.old_email}) has no user, enabled and in the group, before the change"
  }
}

# Keystone users are named by the address as member-sync compares it
# (lower-cased): an address changed only in case is the same user, so
# nothing is planned, and no removal is counted (max_removals 0 passes).
run "an_address_changed_only_in_case_changes_nothing" {
  command = plan

  providers = {
    joinit    = joinit.after_case
    openstack = openstack
  }

  variables {
    previous_members = run.before.planned
    max_removals     = 0
  }

  assert {
    condition     = length(output.to_add) == 0 && length(output.to_remove) == 0 && output.planned == run.before.planned
    error_message = "after ${var.old_email} became ${var.case_email}: to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}; want nothing planned"
  }
  assert {
    condition     = contains([for r in module.sync.records : r.email], var.case_email) && !contains([for r in module.sync.records : r.email], var.old_email)
    error_message = "the read does not hold ${var.case_email} in place of ${var.old_email}: the change in case did not reach it"
  }
  assert {
    condition     = length([for k, u in openstack_identity_user_v3.member : k if u.name == lower(var.old_email) && u.enabled && contains(output.planned, k)]) == 1
    error_message = "the member's user is not the one named ${lower(var.old_email)}, enabled and in the group"
  }
}

# Another address: the user is kept by the member's membership, not by the
# address, so the same user (the same key, in the group before) is renamed
# to the new address; no user is named by the old one, and nothing is
# added to or removed from the group (max_removals 0 passes), as the
# module's README says.
run "a_new_address_renames_the_user" {
  command = plan

  providers = {
    joinit    = joinit.after_new
    openstack = openstack
  }

  variables {
    previous_members = run.before.planned
    max_removals     = 0
  }

  assert {
    condition     = length(output.to_add) == 0 && length(output.to_remove) == 0 && output.planned == run.before.planned
    error_message = "after ${var.old_email} became ${var.new_email}: to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}; want nothing added or removed"
  }
  assert {
    condition     = contains([for r in module.sync.records : r.email], var.new_email)
    error_message = "the read does not hold ${var.new_email} as Join It keeps it"
  }
  assert {
    condition     = length([for k, u in openstack_identity_user_v3.member : k if u.name == lower(var.new_email) && u.enabled && contains(run.before.planned, k)]) == 1
    error_message = "no user named ${lower(var.new_email)}, enabled, whose key was in the group before: want the member's user renamed"
  }
  assert {
    condition     = !contains([for u in values(openstack_identity_user_v3.member) : u.name], lower(var.old_email))
    error_message = "a user is still named ${lower(var.old_email)}: want it renamed, not kept beside a new one"
  }
}
