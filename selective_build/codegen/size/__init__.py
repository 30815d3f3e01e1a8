"""The size stage: measuring a linked runner (or what a library adds to an app),
attributing its bytes to buckets, holding it to its budgets and reporting it. The bucket
vocabulary it shares with the manifest is codegen/size_buckets.py, a leaf apart from it.
"""
