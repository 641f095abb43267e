// Fixture: a comm header.
#pragma once
