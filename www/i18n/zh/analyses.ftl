# attnscope, Simplified Chinese: analyses

## Shared by the analyses

beyond-map-hint = 指向或轻点一个格子，读取它的精确值。
beyond-layer = 层
beyond-not-computed = 尚未计算。
beyond-cancelled = 已取消。
beyond-cancel = 取消

## Value-weighted attention

beyond-vw-switch = 图中显示的内容
beyond-vw-weights-button = 权重
beyond-vw-norms-button = 值加权
beyond-norm-colour = 颜色：每行相对于本行最大的 ‖a·f(x)‖。
beyond-vw-title-norms = 第 { $layer } 层 · 头 { $head }：值加权 ‖a·f(x)‖
beyond-vw-title-weights = 第 { $layer } 层 · 头 { $head }：权重 A
beyond-vw-map-label = 所选的头，查询为行、键为列，每行按本行最大值着色
beyond-vw-caption = 每行按本行的最大值着色；读数给出精确数值。请在面板或“所有头”中选择头。

## Definitions

beyond-value-weighted-definition = 值加权注意力（Kobayashi et al. 2020）：‖a_ij · f(x_j)‖，其中 f(x_j) = (x_j W_V^h + b_V^h) W_O^h，W_O^h 是输出矩阵中属于该头的切片（W_O 的偏置不随 token 变化，故略去）
beyond-rollout-definition = 注意力 rollout（Abnar & Zuidema 2020）：Ā_l = ½·mean_h A_l + ½·I，各行重新归一化；R_l = Ā_l · R_(l−1)，R_1 = Ā_1（对各查询头取平均，分组查询模型也包括在内）
beyond-lens-definition = logit lens（解码器）：softmax(final_norm(h_l) · W_outᵀ)，h_l 是第 l 层之后的残差流，在一个位置上读取；网格给出每个位置在每一层最可能的 token
beyond-knockout-definition = 头消融：把该头的输出 Z_h（W_O 之前）置为 0，或置为它在文本各位置上的均值，然后重新运行模型；效果：之前/之后的下一个 token 列表（解码器），或之前/之后句子嵌入的余弦（编码器）
beyond-importance-definition = 重要性图：每次只消融一个头；解码器：最可能的下一个 token 的概率下降多少，编码器：1 − 之前/之后句子嵌入的余弦
beyond-patch-definition = 激活修补：把干净运行中的一个激活复制到损坏运行中，其余部分重新运行；效果 = (d − d_corrupt) / (d_clean − d_corrupt)，d = 最后一个位置上的 logit(正确) − logit(错误)（0：什么也没恢复，1：恢复了干净答案）
beyond-qk-definition = 一个头的查询和键（若模型对其做旋转，则取 RoPE 之后；在 1/√d_k 缩放之前）一起放到它们的两条主轴上（PCA）；键平移把每个键移动 c = mean(Q) − mean(K)，这会给第 i 行的每个分数加上 q_i·c，因此 A 不变；值放在它们自己的两条轴上，每个输出 o_i = Σ_j a_ij v_j 都是这些值的点的加权平均

## Rollout

beyond-rollout-title = Rollout
beyond-rollout-layers = 第 1 … { $shown } 层之后（共 { $layers } 层）
beyond-rollout-slider = 经过这么多层之后的 rollout
beyond-rollout-grouped = 分组查询模型：对所有查询头取平均。
beyond-rollout-map-label = Rollout：每个 token 的输入（列）有多少到达每个位置（行）

## Logit lens

beyond-lens-title = Logit lens
beyond-lens-at = 在“{ $token }”（位置 { $position }）：如果模型在每一层之后停下，它会预测什么。
beyond-lens-after-layer = 经过的层
beyond-lens-top-token = 最可能的 token
beyond-lens-next-four = 其后四个
beyond-lens-every-position = 所有位置（层 × 位置网格）
beyond-lens-decoders-only = logit lens 读取解码器的输出矩阵：请选择 SmolLM2。

## Head knockout and the importance map

beyond-knockout-title = 头消融
beyond-ablation-switch = 如何去掉一个头
beyond-ablation-zero-long = 把它的输出置零
beyond-ablation-zero = 置零
beyond-ablation-mean-long = 换成它在各位置上的均值
beyond-ablation-mean = 均值
beyond-knockout-grid = 头：按下即消融
beyond-knockout-head-change = L{ $layer } · H{ $head }：变化 { $change }
beyond-knockout-head = 第 { $layer } 层 头 { $head }
beyond-knockout-zeroed = 头 { $heads } 已置零。
beyond-knockout-meaned = 头 { $heads } 已换成其均值。
beyond-knockout-top = 之前最可能的 token { $token }（p = { $before }）现在 p = { $after }，排第 { $rank } 位。
beyond-knockout-drop = 最可能 token 的概率下降（重要性图的度量）：{ $drop }
beyond-knockout-before = 之前的下一个 token
beyond-knockout-after = 之后
beyond-knockout-cosine = 之前与之后句子嵌入的余弦：{ $cosine }
beyond-knockout-one-minus-cosine = 1 − 余弦（重要性图的度量）：{ $change }
beyond-knockout-none-moved = 后面各层的注意力都没有变化。
beyond-knockout-moved = 注意力变化最大的后续头（|ΔA| 的均值）：{ $heads }
beyond-knockout-every-head = 所有头都已去掉：剩下的是嵌入、MLP 和残差通路。
beyond-knockout-none-chosen = 没有选择头：{ $how }，即可消融它们。
beyond-knockout-how = 在网格中按下一个或多个头
beyond-knockout-run = 消融并重新运行
beyond-knockout-clear = 清除
beyond-knockout-all = 选择所有头
beyond-importance-title = 重要性图
beyond-importance-running = 正在消融第 { $done } 个头，共 { $total } 个…
beyond-importance-done = 完成：{ $heads } 个头；颜色 = { $measure }。最亮的变化最大。
beyond-importance-measure-drop = 最可能的下一个 token 的概率下降
beyond-importance-measure-cosine = 1 − 句子嵌入的余弦
beyond-importance-run = 依次消融每个头
beyond-importance-progress = 已消融的头
beyond-importance-caption = 该图为上方的头网格着色（使用消融的置零 / 均值开关）；把指针停在一个头上可查看其数值。

## Activation patching

beyond-patch-title = 激活修补
beyond-patch-stale = 这些图计算之后文本已改变：请再按一次“修补”来打开其中的格子。
beyond-patch-decoders-only = 修补比较的是下一个 token 的 logits，而 MiniLM 这样的编码器不提供它们：请选择 SmolLM2，或从文件打开的解码器。
beyond-patch-clean-note = 干净提示就是上方的文本。在损坏提示中改动其中一个词（token 数相同，或选择补齐或截短）。
beyond-patch-preset = 预设
beyond-patch-choose = 选择…
beyond-patch-preset-indirect = 间接宾语
beyond-patch-preset-factual = 事实回忆
beyond-patch-preset-repeated = 重复序列
beyond-patch-preset-indirect-note = 第二个名字决定答案。在残差图中，前面的层在这个名字的位置上携带它；到了中间的层，它移到最后一个位置：移动它的头会在头图中亮起。
beyond-patch-preset-factual-note = 地标的 token 决定城市。残差图显示，在前面和中间的层里，这一事实在地标的最后一个 token 处被读取，然后被带到最后一个位置。
beyond-patch-preset-repeated-note = 答案是从这个名字第一次出现处复制来的（归纳）。复制它的头，即归纳头，会在头图中亮起（最后位置）。
beyond-patch-corrupt = 损坏提示
beyond-patch-right = 正确答案
beyond-patch-wrong = 错误答案
beyond-patch-what = 修补对象
beyond-patch-what-residual = 残差流（层 × 位置）
beyond-patch-what-heads = 每个头，所有位置（层 × 头）
beyond-patch-what-heads-last = 每个头，最后位置（层 × 头）
beyond-patch-what-blocks = 注意力块和前馈块（层 × 位置）
beyond-patch-fit = 长度不同时
beyond-patch-fit-exact = 指出不同处并停止
beyond-patch-fit-pad = 补齐较短的（空格）
beyond-patch-fit-trim = 截短较长的
beyond-patch-run = 修补
beyond-patch-progress = 修补进度
beyond-patch-running = 修补中：第 { $done } 步，共 { $total } 步…
beyond-patch-done = 完成。两个提示在位置 { $at } 不同。d = logit({ $right }) − logit({ $wrong })：干净提示上为 { $clean }，损坏提示上为 { $corrupt }。{ $notes } 轻点一个格子，再点“打开”，即可在热力图中把它的修补运行与干净运行并排查看。
beyond-patch-note = 注：{ $note }。
beyond-patch-site-residual = 残差流
beyond-patch-site-heads = 各头的输出
beyond-patch-site-attention = 注意力块
beyond-patch-site-feed-forward = 前馈块
beyond-patch-map-title-heads = { $site }：层 × 头
beyond-patch-map-title-positions = { $site }：层 × 位置
beyond-patch-column-head = 头 { $head }
beyond-patch-column-position = 位置 { $position }“{ $token }”
beyond-patch-readout = 第 { $layer } 层，{ $column }：效果 { $effect }（d = { $d }）
beyond-patch-readout-hint = 指向或轻点一个格子，查看它的效果和 d。
beyond-patch-open-what = 这张图是修补后的运行：第 { $layer } 层 { $column } 处的“{ $site }”从干净运行（另一张图）复制到了损坏运行中；效果 { $effect }（d = { $d }）
beyond-patch-open = 在热力图中打开第 { $layer } 层，{ $column }
beyond-patch-open-hint = 轻点一个格子以打开它的运行
beyond-patch-caption = 红色：修补恢复了干净答案（1 为完全恢复）；白色：没有作用（0）；蓝色：反而离它更远。

## The head catalog: its table and maps

catalog-column-head = 层 · 头
catalog-column-entropy = 熵（比特）
catalog-column-distance = 平均距离（token）
catalog-column-previous = 前一个 token
catalog-column-first = 第一个 token（汇聚）
catalog-column-self = 自身
catalog-column-head-title = 头所在的位置
catalog-column-entropy-title = 一行的平均熵：每个查询只看一个键时为 0，均匀分散时为 log2(n)
catalog-column-distance-title = 按 A 加权的 |i − j| 均值：头看得有多远
catalog-column-previous-title = 查询前一个 token 上的平均权重
catalog-column-first-title = 第一个 token 上的平均权重，即“注意力汇聚”
catalog-column-self-title = 查询自身 token 上的平均权重
catalog-select-head = 选择第 { $layer } 层，头 { $head }
catalog-table-caption = 每个头，由它在这段文本上的注意力权重测得。可按某一列排序；选择一行即可选中该头。
catalog-map-label = 每个头的{ $measure }，层为行、头为列；下表列出相同的数值
catalog-map-readout = L{ $layer } · H{ $head }：熵 { $entropy } 比特 · 距离 { $distance } · 前一个 { $previous } · 第一个 { $first } · 自身 { $itself }
catalog-maps-caption = 每张图：层为行，头为列，从最低值（深色）到最高值（黄色）着色；三种权重使用同一刻度，0 到 1。点击一个头即可打开它。

## Find heads

catalog-find-title = 查找头
catalog-find-query = 查询词
catalog-find-key = 关注
catalog-find-run = 给头排序
catalog-find-ranked = 按“{ $query }”对“{ $key }”的关注程度给头排序：

## Head detectors

catalog-detectors-title = 头检测器
catalog-detector-induction = 归纳
catalog-detector-duplicate = 重复 token
catalog-detector-previous = 前一个 token
catalog-detector-first = 第一个 token
catalog-detector-induction-definition = 归纳（Olsson et al. 2022）：在第二份副本上取 A[p+T+t, p+t+1] 的均值，即落在先前出现处的下一个 token 上的权重
catalog-detector-duplicate-definition = 重复 token：在第二份副本上取 A[p+T+t, p+t] 的均值，即落在同一 token 先前出现处的权重
catalog-detector-previous-definition = 前一个 token：对 i ≥ 1 取 A[i, i−1] 的均值
catalog-detector-first-definition = 第一个 token：对所有 i 取 A[i, 0] 的均值
catalog-detector-cell = 第 { $layer } 层 头 { $head }：{ $score }
catalog-detector-prompt = 提示（{ $tokens } 个 token）：{ $prompt }
catalog-detector-repeats = 提示重复的内容
catalog-detector-random = 随机 token
catalog-detector-mine = 我的文本
catalog-detector-text = 文本，重复两遍
catalog-detector-placeholder = 例如 Mr and Mrs Dursley of number four
catalog-detector-period = 每份的随机 token 数
catalog-detector-seed = 种子
catalog-detector-run = 运行检测器

## Heads that resemble each other

catalog-similar-title = 彼此相似的头
catalog-similar-definition = d(g, h) = 对各查询 i 取 √JS(A_g[i,:], A_h[i,:]) 的平均，即以比特计的 Jensen–Shannon 散度（0 ≤ d ≤ 1）；各头按 d 的经典多维尺度分析放置，并按平均连接法分组
catalog-similar-too-long = 逐行比较每两个头只适用于最多 { $most } 个 token 的文本；这段有 { $tokens } 个。请缩短文本，以便画出头的分布图。
catalog-similar-running = 正在比较每两个头：{ $done } / { $total } 对
catalog-similar-stop = 停止
catalog-similar-start = 比较各头
catalog-similar-start-after = 在这段文本上（每两个头，逐行比较）。
catalog-similar-groups = 分组
catalog-similar-map-label = 所有头在一张图上：注意方式相似的头彼此靠近
catalog-similar-dot = { $head }：第 { $group } 组（点击打开）
catalog-similar-caption = 每个点是 { $heads } 个头之一，在这段文本的 { $tokens } 个 token 上注意方式相似的头彼此靠近；颜色表示相似头的分组。点击一个点即可在所有视图中打开该头。
catalog-similar-not-on-map = 所选的头不在这张图上。
catalog-similar-like = 与 { $head } 相似的头：
catalog-similar-same-group = 同组
