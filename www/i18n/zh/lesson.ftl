# attnscope, Simplified Chinese: lesson

## 各步标题

lesson-step-tokens = token
lesson-step-qkv = q、k 和 v：x 的三个投影
lesson-step-scores = 分数：q · k
lesson-step-scale = 为什么要除以 √d_k
lesson-step-softmax = softmax：分数变成权重
lesson-step-mask = 因果掩码与 −∞
lesson-step-sum = 加权和，以及 E + ΔE
lesson-step-heads = 多个头，以及共享键的头
lesson-step-last-row = 模型如何写作：由最后一行选择
lesson-step-next = 下一个 token 的分布及其温度
lesson-step-sampling = 采样与随机种子
lesson-step-cache = 键值缓存
lesson-step-cross = 交叉注意力：一个词在听声音
lesson-step-timing = 每个词在何时说出

## 卡片

lesson-count = 第 { $step } 步，共 { $steps } 步
lesson-dot = 第 { $step } 步：{ $title }
lesson-steps = 课程步骤
lesson-back = ← 上一步
lesson-next = 下一步 →
lesson-try = 试一试：
lesson-computing = 正在计算…
lesson-type-sentence = 输入一个句子即可开始：课程会用它来讲解。

## 通用片段

lesson-quoted = “{ $word }”
lesson-percent = { $p }%
lesson-preview = {"["}{ $numbers }]（共 { $count } 个数）

## 第 1 步：token

lesson-says-tokens = { $model } 把你的句子读成 { $tokens } 个 token。每个 token 在每张注意力图里都有一行和一列：这里我们跟随的查询是“{ $query }”。
lesson-label-tokens = token 数
lesson-label-query = 查询 token
lesson-label-ids = token 编号
lesson-try-tokens = 在文本框里输入一个你自己的词：图中会为它多出一行和一列。

## 第 2 步：q、k 和 v

lesson-says-qkv = “{ $query }”以一个含 { $width } 个数的向量 x 进入这一层。三个学到的矩阵把它投影成查询 q、键 k 和值 v，各含 { $dk } 个数：q 负责提问，k 负责回答，v 是被传递出去的内容。
lesson-label-x = “{ $query }”的 x
lesson-try-qkv = 选择另一个 token（在 token 列表中，或点任意一张图的某一行），查看它的向量。
lesson-strip-x = x “{ $token }”
lesson-vectors-label = “{ $token }”的向量 x 及其投影 q、k、v，以彩色格子条显示
lesson-vectors-caption = 每个数一个格子：红色为正，蓝色为负，每条按它自己的最大值着色。q、k、v 比 x 短：这个头在 d_k 维中计算。

## 第 3 步：分数

lesson-says-scores = “{ $query }”的查询通过点积与每个键比较，s_j = q · k_j：分数越大，这个键就越符合查询要找的东西。
lesson-try-scores = 指向或轻点一个格子，读出它的分数。红色为正，蓝色为负。

## 第 4 步：除以 √d_k

lesson-says-scale = 如果 q 和 k 的各分量方差为 1，q · k 的方差就是 d_k = { $dk }；乘以 1/√d_k 会把它拉回到 1 附近，softmax 就不会饱和。在这一行里，分数的方差从 { $raw } 变为 { $scaled }。
lesson-label-scale = 缩放系数
lesson-label-var-raw = q · k_j 的方差
lesson-label-var-scaled = 缩放之后
lesson-try-scale = 按“播放”看分数缩小；或者去掉 1/√d_k，看权重变得非此即彼。

## 第 5 步：softmax

lesson-says-softmax = softmax 把每一行分数变成权重，exp(s_j) / Σ exp(s_m)：全部为正，总和为 1。“{ $query }”把最大的权重 { $weight } 给了“{ $key }”。
lesson-label-top = 最大权重
lesson-value-top = { $weight } → “{ $key }”
lesson-try-softmax = 拖动滑块：系数大于 1 让 softmax 更尖锐，小于 1 让它更平坦。

## 第 6 步：因果掩码

lesson-says-mask-causal = { $model } 是因果模型：掩码给每个后面 token 的分数加上 −∞，而 exp(−∞) = 0，所以没有 token 能关注未来。“{ $query }”能看到 { $tokens } 个 token 中的 { $seen } 个。
lesson-says-mask-window = { $model } 是带滑动窗口的因果模型：掩码给每个后面 token 以及往前超过 { $back } 个位置的 token 的分数加上 −∞，而 exp(−∞) = 0。“{ $query }”能看到 { $tokens } 个 token 中的 { $seen } 个。
lesson-says-mask-none = { $model } 双向阅读（没有掩码）。解码器会给每个后面 token 的分数加上 −∞，而 exp(−∞) = 0：因果网格显示的是，加上这种掩码后 { $model } 会关注哪里。
lesson-label-mask = 模型的掩码
lesson-mask-none = 无
lesson-mask-causal = 因果
lesson-mask-window = 滑动窗口
lesson-label-hidden = 因果掩码对“{ $query }”隐藏的键
lesson-try-mask = 按“播放”：叉号（−∞）会变成恰好为 0 的权重。

## 第 7 步：加权和

lesson-says-sum = 这个头对“{ $query }”的输出是加权和 z = Σ a_j v_j。所有头的输出拼接起来，再经 W_O 投影，得到加到该 token 向量上的更新 ΔE：E + ΔE。
lesson-try-sum = 点击左侧的一个词，跟随另一个查询。

## 第 8 步：多个头

lesson-says-heads-shared = { $model } 有 { $layers } 层，每层 { $heads } 个头，各有自己的模式。它的查询头共享 { $kv } 个键值头（分组查询注意力）：同一个括号下的头使用相同的 k 和 v。
lesson-says-heads-own = { $model } 有 { $layers } 层，每层 { $heads } 个头，各有自己的模式，也各有自己的键和值。SmolLM2 则让每个键值头由三个查询头共享（分组查询注意力）。
lesson-label-heads = 层数 × 头数
lesson-label-kv = 键值头
lesson-label-group = 与头 { $head } 共享键的头
lesson-sharing-none = 无（使用自己的键）
lesson-try-heads = 点击一个小图，在所有视图中打开这个头；用 SmolLM2 时，比较同一个括号下的头。

## 章节：模型如何写作

lesson-says-no-writer = { $model } 一次读完整个文本，没有下一个 token 可选。这一章需要一个会写作的模型：比如解码器 SmolLM2。
lesson-use-smollm2 = 改用会写作的 SmolLM2
lesson-no-distribution = 换成会写作的模型后，这里会显示分布。
lesson-label-top-next = 最可能的下一个
lesson-value-token = “{ $token }” { $p }

lesson-says-last-row = { $model } 一次写一个 token。在因果掩码下，A 的第 i 行只能看到第 0 … i 个 token，所以每一行都可以预测它后面的 token；但写作时，只有最后一行算数。经过最后一层后，“{ $last }”的向量变成下一个 token 的 logits：它最有把握的猜测是“{ $top }”，概率 { $p }。
lesson-label-last = 做选择的那一行
lesson-label-visible = 它能看到的键
lesson-try-last-row = 在末尾输入一个词：会出现新的最后一行，下一个 token 的列表也会改变。

lesson-says-next = softmax 把 logits z 变成概率，p_i = exp(z_i / T) / Σ exp(z_j / T)。T = 1 给出模型本来的分布。T 越低，分布越尖锐：排第一的 token 赢得越来越频繁，文本开始自我重复。T 越高，分布越平坦：罕见的 token 冒出来，文本开始东拉西扯。在 T = { $t } 时，“{ $top }”得到 { $p }。
lesson-label-listed = 列出的五个合计
lesson-try-next = 拖动温度：低于 1 时条形更尖锐，高于 1 时更平坦。

lesson-says-drawn = 第 { $step } 步抽到 u = { $u }。它保留了 { $kept } 个 token，占概率的 { $mass }，再把它们放大到总和为 1，然后选了“{ $token }”：累计总和中包含 u 的那一段所对应的 token。它的份额是 { $share }。随机种子固定了每一个 u，所以同一个链接会写出同样的文本。
lesson-says-greedy = 第 { $step } 步不经抽取就选了“{ $token }”（{ $p }）：贪心解码总是选最可能的 token。在“续写”卡片中选择“采样”即可改为抽取。
lesson-says-sampling = 贪心解码总是选最可能的 token。采样则在 0 到 1 之间抽一个数 u，选出概率累计总和中包含它的那一段所对应的 token。top-k 只保留最可能的 k 个 token，top-p 保留概率加起来达到 p 的最少几个，保留下来的再放大到总和为 1。随机种子固定了每一次抽取，所以同一个链接会写出同样的文本。
lesson-label-chosen = 选中
lesson-draw-none = 无（贪心）
lesson-label-kept = 保留
lesson-value-kept = { $kept } 个 token，{ $mass }
lesson-try-sampling = 在“续写”卡片中选择“采样”，设一个随机种子，然后按“单步”：条形图会显示截断线和抽到的 token。

lesson-says-cache = 下一个 token 的查询需要每一层中每个之前 token 的键和值。在因果掩码下它们永远不变，所以模型把它们存起来：写第 { $next } 个 token 时，在 { $layers } 层的每一层里只计算 Q、K、V 的一个新行（{ $computed } 个数），并重用之前算好的 { $n } 行 K 和 V（{ $reused } 个数）。{ $shared }
lesson-says-cache-shared = 它的 { $heads } 个查询头共享 { $kv } 个键值头，所以缓存每层保存 { $kv } 组键和值，而不是 { $heads } 组。
lesson-label-cache-new = 为下一个 token 计算的数
lesson-label-cache-reused = 从缓存中重用的数
lesson-label-cache-saved = 无需重算的 K、V 行
lesson-try-cache = 按“续写”，看热力图每个 token 增加一行，每一行只计算一次。

## 章节：听

lesson-no-clip = 这一章要听声音。播放图下方的一个示例（或录一句你自己的话）：Whisper tiny.en 会在你的浏览器里写下它听到的内容，课程再用它的数字继续。
lesson-says-cross = Whisper 听到了“{ $text }”，并把它写成 { $tokens } 个 token。每个 token 的查询要与来自另一个序列的键比较：编码器的 1500 个声音帧（每帧 20 ms；音频占其中 { $frames } 个，其余是静音）。公式相同，softmax(q Kᵀ/√d_k)，但没有掩码：每个 token 都可以听任何位置。这里（{ $which }），“{ $query }”的查询把最大的权重 { $weight } 放在 { $from }–{ $to } s。
lesson-which-head = 解码器第 { $layer } 层，第 { $head } 个头
lesson-which-mean = 各对齐头的平均
lesson-label-listen-tokens = 写出的 token
lesson-label-listen-frames = 声音帧（键）
lesson-value-frames = 音频占 { $frames } 个，共 1500 个
lesson-label-listen-peak = “{ $query }”的最大权重
lesson-value-peak = { $weight }，在 { $time } s
lesson-label-listen-clip = 落在音频上的份额
lesson-try-cross = 轻点声谱图下方另一个词的片段：它的第一个 token 会成为查询，这一段也会播放。

lesson-says-timing = 大多数头并不跟随时间，但有少数会：检查点指定了 { $count } 个对齐头（层.头：{ $heads }）。它们的平均值逐行随着词语推进而在声音中前移；沿着它做动态时间规整（DTW），就得到每个词的开始和结束。{ $span }
lesson-says-timing-span = “{ $word }”的发音从 { $start } s 到 { $end } s。
lesson-label-listen-heads = 对齐头
lesson-label-listen-words = 已定时的词
lesson-try-timing = 选择单个头，而不是对齐头的平均：大多数头会听遍整段音频。
