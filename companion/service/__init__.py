"""The app's services: what the views call, on top of storage and the rules core."""
